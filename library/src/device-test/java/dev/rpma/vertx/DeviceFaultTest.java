package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The device or the network goes away under live connections. Destructive: runs only in the
 * throw-away Soft-RoCE guest (RPMA_TEST_GUEST=1), in a JVM of its own after the rest of the
 * suite (tag "destructive", scripts/testbed/suite.d/zz-destructive.sh): after a link flap the
 * emulated device sometimes takes long to establish new connections again.
 */
@Tag("rdma")
@Tag("destructive")
class DeviceFaultTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    RdmaTestSupport.deviceIp();
    assumeTrue("1".equals(System.getenv("RPMA_TEST_GUEST")),
        "destructive (deletes the RDMA link): runs only in the throw-away guest of ./dev rdma");
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterEach
  void stop() throws Exception {
    if (vertx != null) {
      await(vertx.close().otherwiseEmpty());
    }
  }

  private static int run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).inheritIO().start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in 60 s");
    }
    return p.exitValue();
  }

  /** Leaves the guest as found: the RDMA port ACTIVE again (bounded wait). */
  private static void waitForActivePort() throws IOException, InterruptedException {
    for (int i = 0; i < 60; i++) {
      Process p = new ProcessBuilder("rdma", "link", "show", "rxe0/1").start();
      String state = new String(p.getInputStream().readAllBytes());
      p.waitFor();
      if (state.contains("state ACTIVE")) {
        return;
      }
      Thread.sleep(1000);
    }
  }

  @Test
  void takingTheNetworkLinkDownFailsTheOperationsInFlightInsteadOfHangingThem() throws Exception {
    Loopback pair = Loopback.open(vertx, new ConnectionOptions().setCompletionTimeoutMs(5000));
    WriteWindow writes = WriteWindow.start(pair.client, pair.remote, pair.clientRegion, 64, 1024);
    await(writes.busy());
    try {
      run("ip", "link", "set", "eth0", "down");

      List<Future<Void>> all = writes.issued();
      await(Future.join(all).otherwiseEmpty());
      Throwable failure = all.stream().filter(Future::failed).map(Future::cause).findFirst()
          .orElseThrow(() -> new AssertionError("no write failed with the link down"));
      System.out.println("link down, distinct failures: " + all.stream().filter(Future::failed)
          .map(f -> f.cause().getMessage()).distinct().toList());
      assertTrue(all.stream().allMatch(Future::isComplete), "no write is left pending");
      // the device's retry error, or the completion watchdog if the path stalls silently
      assertInstanceOf(RpmaException.class, failure);
    } finally {
      run("ip", "link", "set", "eth0", "up");
      waitForActivePort();
    }
  }
}
