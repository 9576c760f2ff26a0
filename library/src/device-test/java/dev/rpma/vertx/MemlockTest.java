package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    String out = runUnprivileged();

    assertTrue(out.contains("REGISTER-FAILED"), out);
    assertTrue(out.contains("locked-memory limit (now " + LIMIT + " bytes)"), out);
    assertTrue(out.contains("ulimit -l") && out.contains("LimitMEMLOCK"), out);
    assertTrue(out.contains("ENOMEM"), out);
  }

  @Test
  void aFileRegionOverTheLockedMemoryLimitIsRefusedBeforeItIsMapped() throws Exception {
    Path file = Files.createTempFile("memlock-region", ".dat");
    try {
      Files.write(file, new byte[16 << 20]);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

      String out = runUnprivileged(file.toString());

      assertTrue(out.contains("REGISTER-FAILED"), out);
      assertTrue(out.contains("may lock " + LIMIT + " bytes (RLIMIT_MEMLOCK)"), out);
      assertTrue(out.contains("ulimit -l") && out.contains("CAP_IPC_LOCK"), out);
    } finally {
      Files.delete(file);
    }
  }

  /** MemlockMain in a child JVM as nobody under the limit; its output. */
  private static String runUnprivileged(String... more) throws Exception {
    List<String> command = new ArrayList<>(List.of("prlimit", "--memlock=" + LIMIT + ":" + LIMIT,
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", ChildProcess.classPathAnyoneCanRead(), MemlockMain.class.getName(),
        RdmaTestSupport.deviceIp()));
    command.addAll(List.of(more));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(Await.SECONDS, TimeUnit.SECONDS), out);
    return out;
  }
}
