package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The network link taken down: the doctor names the port that is down, its netdev, and how to
 * bring it up. Destructive (the guest's only link goes down for a moment): runs only in the
 * throw-away guest, in the destructive JVM after the rest of the suite (suite.d/zz-destructive.sh).
 */
@Tag("rdma")
@Tag("destructive")
class DoctorLinkDownTest {

  @Test
  void aPortWhoseLinkIsDownIsNamedWithHowToBringItUp() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    assumeTrue("1".equals(System.getenv("RPMA_TEST_GUEST")),
        "destructive (takes the link down): runs only in the throw-away guest of ./dev rdma");
    run("ip", "link", "set", "eth0", "down");
    DoctorRun down;
    try {
      down = DoctorRun.of(List.of(), ip);
    } finally {
      run("ip", "link", "set", "eth0", "up");
    }
    DoctorRun up = waitForHealthy(ip);

    assertEquals(1, down.exit(), down.out());
    assertTrue(down.out().contains("PROBLEM port-state: rxe0 port 1 (netdev eth0) is DOWN"),
        down.out());
    assertTrue(down.out().contains("ip link set eth0 up"), down.out());
    assertEquals(0, up.exit(), "the doctor finds the port healthy again once the link is up: "
        + up.out());
  }

  /** Leaves the guest as found: the port ACTIVE again, which the doctor sees (bounded wait). */
  private static DoctorRun waitForHealthy(String ip) throws Exception {
    DoctorRun run = null;
    for (int i = 0; i < 10; i++) {
      run = DoctorRun.of(List.of(), ip);
      if (run.exit() == 0) {
        return run;
      }
      Thread.sleep(2000);
    }
    return run;
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " failed");
    }
  }
}
