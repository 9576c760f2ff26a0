package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
    List<String> command = List.of("prlimit", "--memlock=" + LIMIT + ":" + LIMIT,
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", ChildProcess.classPathAnyoneCanRead(), MemlockMain.class.getName(),
        RdmaTestSupport.deviceIp());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(Await.SECONDS, TimeUnit.SECONDS), out);

    assertTrue(out.contains("REGISTER-FAILED"), out);
    assertTrue(out.contains("locked-memory limit (now " + LIMIT + " bytes)"), out);
    assertTrue(out.contains("ulimit -l") && out.contains("LimitMEMLOCK"), out);
    assertTrue(out.contains("ENOMEM"), out);
  }
}
