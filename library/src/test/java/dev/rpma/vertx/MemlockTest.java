package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Registering more than the locked-memory limit allows: the error names the limit, its value
 * and the fix. The guest's tests run as root, whose CAP_IPC_LOCK ignores the limit, so the
 * registration runs in a child JVM as an unprivileged user (setpriv) under 1 MiB (prlimit).
 */
@Tag("rdma")
class MemlockTest {

  private static final int LIMIT = 1 << 20;

  @Test
  void aRegistrationOverTheLockedMemoryLimitNamesTheLimitAndTheFix() throws Exception {
    List<String> command = List.of("prlimit", "--memlock=" + LIMIT + ":" + LIMIT,
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPathAnyoneCanRead(), MemlockMain.class.getName(),
        RdmaTestSupport.deviceIp());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(RdmaTestSupport.AWAIT_SECONDS, TimeUnit.SECONDS), out);

    assertTrue(out.contains("REGISTER-FAILED"), out);
    assertTrue(out.contains("locked-memory limit (now " + LIMIT + " bytes)"), out);
    assertTrue(out.contains("ulimit -l") && out.contains("LimitMEMLOCK"), out);
    assertTrue(out.contains("ENOMEM"), out);
  }

  /**
   * The class path copied where the unprivileged user can read it: the dependencies live in
   * root's Maven repository, under a home only root may enter.
   */
  private static String classPathAnyoneCanRead() throws IOException {
    Path copy = Files.createTempDirectory("memlock-cp");
    List<String> entries = new ArrayList<>();
    int i = 0;
    for (String entry : ChildProcess.testClassPath().split(File.pathSeparator)) {
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
}
