package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * TROUBLESHOOTING.md's table (exception -> meaning -> fix) kept in step with the code: a new
 * public exception of the API gets a row, and a row never names a class that is gone.
 */
class TroubleshootingTableTest {

  private static final Path TABLE = Path.of("..", "TROUBLESHOOTING.md");
  private static final Path API_CLASSES = Path.of("target", "classes", "dev", "rpma", "vertx");
  /** A table row's first cell: one class name in backticks. */
  private static final Pattern ROW = Pattern.compile("^\\| `([\\w.]+)` \\|");

  @Test
  void everyPublicExceptionOfTheApiHasARow() throws IOException {
    Set<String> named = new TreeSet<>(namedClasses());
    List<String> missing = new ArrayList<>();
    for (Class<?> exception : publicApiExceptions()) {
      if (!named.contains(exception.getSimpleName())) {
        missing.add(exception.getName());
      }
    }
    assertEquals(List.of(), missing, "public exceptions of dev.rpma.vertx without a row in "
        + TABLE + ": add one (exception | the message says | what it means | what to do)");
  }

  @Test
  void everyRowNamesAClassThatExists() throws IOException {
    List<String> unknown = new ArrayList<>();
    for (String name : namedClasses()) {
      if (resolve(name) == null) {
        unknown.add(name);
      }
    }
    assertEquals(List.of(), unknown, "rows of " + TABLE + " naming no class (a simple name is"
        + " looked up in dev.rpma.vertx and java.lang; else give the full name)");
  }

  @Test
  void theTableHasRowsAndFindsTheApiExceptions() throws IOException {
    // so that a moved file or a changed row format cannot make the checks above pass on nothing
    assertTrue(namedClasses().size() >= 20, "rows found: " + namedClasses());
    assertFalse(publicApiExceptions().isEmpty(), "no exception classes under " + API_CLASSES);
    assertTrue(publicApiExceptions().contains(RpmaException.class));
  }

  /** The class of each row, in table order (a class may have several rows). */
  private static List<String> namedClasses() throws IOException {
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(TABLE)) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  private static List<Class<?>> publicApiExceptions() throws IOException {
    List<Class<?>> exceptions = new ArrayList<>();
    try (Stream<Path> files = Files.list(API_CLASSES)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String fileName = file.getFileName().toString();
        if (!fileName.endsWith(".class") || fileName.contains("$")
            || fileName.equals("package-info.class")) {
          continue;
        }
        Class<?> type = resolve(fileName.substring(0, fileName.length() - ".class".length()));
        if (type != null && Throwable.class.isAssignableFrom(type)
            && Modifier.isPublic(type.getModifiers())) {
          exceptions.add(type);
        }
      }
    }
    return exceptions;
  }

  /** The class {@code name} stands for, without initialising it; null if there is none. */
  private static Class<?> resolve(String name) {
    List<String> candidates = name.contains(".") ? List.of(name)
        : List.of("dev.rpma.vertx." + name, "java.lang." + name);
    for (String candidate : candidates) {
      try {
        return Class.forName(candidate, false, TroubleshootingTableTest.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        // try the next package
      }
    }
    return null;
  }
}
