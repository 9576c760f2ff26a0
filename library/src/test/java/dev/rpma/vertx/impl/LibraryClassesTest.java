package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a peer's open loads up front ({@link LibraryClasses}) is every class of the library, from
 * a classes directory as from a jar: after it, no path of the library needs to open a file to
 * load a class (what a process at its open-file limit cannot do).
 */
class LibraryClassesTest {

  /** The build's output, as the tests and the device suite run the library. */
  private static final Path CLASSES = Path.of("target", "classes").toAbsolutePath();

  @TempDir
  Path temp;

  @Test
  void theTestsRunTheLibraryFromItsClassesDirectory() {
    assertEquals(CLASSES, LibraryClasses.codeSource());
  }

  @Test
  void everyClassInTheClassesDirectoryIsListed() throws IOException {
    Set<String> listed = new TreeSet<>(LibraryClasses.names());

    assertEquals(classFilesUnder(CLASSES), listed);
    assertTrue(listed.contains("dev.rpma.vertx.impl.engine.CloseReasons$1"),
        "the class the CM event path failed to load at the fd limit");
  }

  @Test
  void fromADirectoryNoClassNeedsItsFileOnceAPeerOpened() throws Exception {
    Path copy = copyOfClasses();
    Set<String> all = classFilesUnder(copy);
    try (LibraryLoader loaded = new LibraryLoader(copy);
        LibraryLoader notLoaded = new LibraryLoader(copy)) {
      loaded.loadAll();
      deleteTree(copy); // as good as a process that can open no file

      for (String name : all) {
        assertTrue(loaded.isLoaded(name), name + " was not loaded up front");
        loaded.loadClass(name);
      }
      assertThrows(ClassNotFoundException.class,
          () -> notLoaded.loadClass("dev.rpma.vertx.impl.engine.CloseReasons$1"),
          "without it, a class first used now could not be loaded: the test would not see");
    }
  }

  @Test
  void fromAJarEveryClassIsLoadedWhenAPeerOpens() throws Exception {
    Path jar = temp.resolve("vertx-rpma.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Path f : filesUnder(CLASSES)) {
        out.putNextEntry(new JarEntry(CLASSES.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    try (LibraryLoader loader = new LibraryLoader(jar)) {
      loader.loadAll();

      for (String name : classFilesUnder(CLASSES)) {
        assertTrue(loader.isLoaded(name), name + " was not loaded up front");
      }
    }
  }

  /** The binary names of the class files under {@code root}, by path. */
  private static Set<String> classFilesUnder(Path root) throws IOException {
    return filesUnder(root).stream()
        .map(f -> root.relativize(f).toString())
        .filter(f -> f.endsWith(".class") && !f.endsWith("-info.class"))
        .map(f -> f.substring(0, f.length() - 6).replace('/', '.'))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<Path> filesUnder(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root.resolve("dev"))) {
      return all.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }

  private Path copyOfClasses() throws IOException {
    Path copy = temp.resolve("classes");
    for (Path f : filesUnder(CLASSES)) {
      Path to = copy.resolve(CLASSES.relativize(f).toString());
      Files.createDirectories(to.getParent());
      Files.copy(f, to);
    }
    return copy;
  }

  private static void deleteTree(Path root) throws IOException {
    List<Path> all = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.forEach(all::add);
    }
    for (int i = all.size() - 1; i >= 0; i--) {
      Files.delete(all.get(i));
    }
  }

  /**
   * The library from {@code source} alone (the tests' own copy is not used for its classes),
   * everything else from the tests' class path: a process that runs the library from there.
   */
  private static final class LibraryLoader extends URLClassLoader {

    LibraryLoader(Path source) throws IOException {
      super(new URL[] {source.toUri().toURL()}, LibraryClassesTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("dev.rpma.vertx.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        return c != null ? c : findClass(name);
      }
    }

    /** What a peer's open runs: LibraryClasses.loadAll, of this loader's copy. */
    void loadAll() throws ReflectiveOperationException {
      var loadAll = loadClass(LibraryClasses.class.getName()).getDeclaredMethod("loadAll");
      loadAll.setAccessible(true);
      loadAll.invoke(null);
    }

    boolean isLoaded(String name) {
      return findLoadedClass(name) != null;
    }
  }
}
