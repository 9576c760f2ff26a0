package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A second JVM running a main class of the tests, started and awaited until it says READY. */
final class ChildProcess {

  private ChildProcess() {
  }

  /**
   * The class path of the tests, also under the JUnit console launcher, which loads them
   * through a class loader of its own rather than java.class.path.
   */
  static String testClassPath() {
    List<String> entries = new ArrayList<>();
    if (ChildProcess.class.getClassLoader() instanceof URLClassLoader loader) {
      for (URL url : loader.getURLs()) {
        try {
          entries.add(Path.of(url.toURI()).toString());
        } catch (URISyntaxException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    entries.add(System.getProperty("java.class.path"));
    return String.join(File.pathSeparator, entries);
  }

  /** Starts {@code main} with {@code args}; returns once it printed {@code readyLine}. */
  static Process start(Class<?> main, String readyLine, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", testClassPath(), main.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.equals(readyLine)) {
      System.out.println("[" + main.getSimpleName() + "] " + line);
    }
    assertEquals(readyLine, line, main.getSimpleName() + " came up");
    return process;
  }
}
