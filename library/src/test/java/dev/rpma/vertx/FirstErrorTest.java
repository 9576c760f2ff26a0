package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The first librpma error of a JVM carries the real errno (host: no RDMA device here, so
 * ENODEV). librpma logs before its caller reads errno, and the log goes into Java: before the
 * bridge saved errno, the JVM's own work there left ENOENT (2) in its place.
 */
class FirstErrorTest {

  @Test
  void theFirstErrorInAFreshJvmCarriesTheRealErrnoWithItsName() throws IOException,
      InterruptedException {
    Process child = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", ChildProcess.testClassPath(), FirstErrorMain.class.getName(), "127.0.0.1"))
        .redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");

    String line = output.lines().filter(l -> l.startsWith("ERRNO ")).findFirst()
        .orElseThrow(() -> new AssertionError("no ERRNO line in: " + output));
    assertEquals("ERRNO 19", line.substring(0, 8), line);
    assertTrue(line.contains("ENODEV (No such device)"), line);
  }
}
