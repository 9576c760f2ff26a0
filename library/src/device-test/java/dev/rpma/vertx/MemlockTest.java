package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Registering more than the locked-memory limit allows: the error names the limit, its value
 * and the fix. The guest's tests run as root, whose CAP_IPC_LOCK ignores the limit, so the
 * registrations run in a child JVM as an unprivileged user (setpriv) under 1 MiB (prlimit):
 * one JVM for both cases (a buffer, then a file), each case reading its own line of its output.
 * The child runs Vert.x as a plain application does, whatever transport the suite's pass is on,
 * and a refused registration never reaches the event loop: the io_uring pass leaves it out.
 */
@Tag("rdma")
@Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT)
class MemlockTest {

  private static final int LIMIT = 1 << 20;

  /** What the child printed, both registrations'. */
  private static String out;

  @BeforeAll
  static void registerOverTheLimitAsNobody() throws Exception {
    Path file = Files.createTempFile("memlock-region", ".dat");
    try {
      Files.write(file, new byte[16 << 20]);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
      out = runUnprivileged(file);
    } finally {
      Files.delete(file);
    }
  }

  @Test
  void aRegistrationOverTheLockedMemoryLimitNamesTheLimitAndTheFix() {
    String line = lineOf("BUFFER");

    assertTrue(line.contains("REGISTER-FAILED"), out);
    assertTrue(line.contains("locked-memory limit (now " + LIMIT + " bytes)"), out);
    assertTrue(line.contains("ulimit -l") && line.contains("LimitMEMLOCK"), out);
    assertTrue(line.contains("ENOMEM"), out);
  }

  @Test
  void aFileRegionOverTheLockedMemoryLimitIsRefusedBeforeItIsMapped() {
    String line = lineOf("FILE");

    assertTrue(line.contains("REGISTER-FAILED"), out);
    assertTrue(line.contains("may lock " + LIMIT + " bytes (RLIMIT_MEMLOCK)"), out);
    assertTrue(line.contains("ulimit -l") && line.contains("CAP_IPC_LOCK"), out);
  }

  /** The child's line about one registration (a message may go on over more lines). */
  private static String lineOf(String what) {
    int at = out.indexOf(what + " REGISTER");
    assertTrue(at >= 0, "no " + what + " line from MemlockMain:\n" + out);
    int next = out.indexOf("\nFILE REGISTER", at + 1);
    return next < 0 || what.equals("FILE") ? out.substring(at) : out.substring(at, next);
  }

  /** MemlockMain in a child JVM as nobody under the limit, registering a buffer and FILE. */
  private static String runUnprivileged(Path file) throws Exception {
    List<String> command = List.of("prlimit", "--memlock=" + LIMIT + ":" + LIMIT,
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", ChildProcess.classPathAnyoneCanRead(), MemlockMain.class.getName(),
        RdmaTestSupport.deviceIp(), file.toString());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String text = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(Await.SECONDS, TimeUnit.SECONDS), text);
    return text;
  }
}
