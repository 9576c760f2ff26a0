package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/** A second JVM running a main class of the tests, started and awaited until it says READY. */
public final class ChildProcess {

  private ChildProcess() {
  }

  /**
   * The class path of the tests, also under the JUnit console launcher, which loads them
   * through a class loader of its own rather than java.class.path.
   */
  public static String testClassPath() {
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

  /** The copy classPathAnyoneCanRead made, once per JVM. */
  private static String readableClassPath;

  /**
   * The class path copied where an unprivileged user can read it (for a child run through
   * setpriv): the dependencies live in root's Maven repository, under a home only root may
   * enter. Copied once per JVM (the tests' class path does not change while they run): 20 MB
   * over the guest's 9p share each time was seconds per test.
   */
  static synchronized String classPathAnyoneCanRead() throws IOException {
    if (readableClassPath == null) {
      readableClassPath = copyClassPathAnyoneCanRead();
    }
    return readableClassPath;
  }

  private static String copyClassPathAnyoneCanRead() throws IOException {
    Path copy = Files.createTempDirectory("readable-cp");
    List<String> entries = new ArrayList<>();
    int i = 0;
    for (String entry : testClassPath().split(File.pathSeparator)) {
      Path from = Path.of(entry);
      if (!Files.exists(from)) {
        continue;
      }
      Path to = copy.resolve(i++ + "-" + from.getFileName());
      try (Stream<Path> files = Files.walk(from)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.copy(f, to.resolve(from.relativize(f).toString()));
        }
      }
      entries.add(to.toString());
    }
    try (Stream<Path> files = Files.walk(copy)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        f.toFile().setReadable(true, false);
        f.toFile().setExecutable(Files.isDirectory(f), false);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /**
   * Starts {@code main} with {@code args}; returns once it printed {@code readyLine}, fails if
   * it does not within the await limit. The child's output is echoed, prefixed, meanwhile.
   */
  static Process start(Class<?> main, String readyLine, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // the child runs Vert.x on the parent's transport (RdmaTestSupport.nativeVertx)
        "-D" + RdmaTestSupport.TRANSPORT_PROPERTY + "=" + RdmaTestSupport.transport(),
        "-cp", testClassPath(), main.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    AtomicBoolean ready = new AtomicBoolean();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (ready.get()) {
            // what the child says later (its logs) goes on being echoed, for the reader of a failure
            System.out.println("[" + main.getSimpleName() + "] " + line);
          } else {
            lines.add(line);
          }
        }
      } catch (IOException e) {
        // the child is gone: the deadline below reports it
      }
    }, "child-output-" + main.getSimpleName());
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + Await.SECONDS * 1_000_000_000L;
    for (;;) {
      String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) {
        process.destroyForcibly();
        fail(main.getSimpleName() + " did not print " + readyLine + " within "
            + Await.SECONDS + " s (alive: " + process.isAlive() + ")");
      }
      if (line.equals(readyLine)) {
        ready.set(true);
        lines.forEach(l -> System.out.println("[" + main.getSimpleName() + "] " + l));
        return process;
      }
      System.out.println("[" + main.getSimpleName() + "] " + line);
    }
  }
}
