package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keepalive on the device: an idle connection probes its peer with zero-byte reads that the
 * peer's device answers, and stays open; a busy one is never probed. (A peer that goes away is
 * noticed across hosts: the cross-host part of the suite.)
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class KeepAliveTest {

  private static final int INTERVAL_MS = 200;

  private Vertx vertx;
  private Loopback pair;

  @BeforeEach
  void connect() {
    vertx = RdmaTestSupport.nativeVertx();
    pair = Loopback.open(vertx, new ConnectionOptions().setKeepAliveMs(INTERVAL_MS));
  }

  @AfterEach
  void disconnect() {
    pair.close();
    await(vertx.close());
  }

  @Test
  void anIdleConnectionIsProbedItsPeerAnswersAndItStaysOpen() throws InterruptedException {
    Thread.sleep(8L * INTERVAL_MS);

    long probes = statsOnItsLoop().keepAliveProbes();
    assertTrue(probes >= 2, "probes sent while idle: " + probes);
    // the peer's application took no part: its side had nothing to do, and both still work
    await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));
  }

  @Test
  void aBusyConnectionSendsNoProbe() {
    long intervalNanos = INTERVAL_MS * 1_000_000L;
    long until = System.nanoTime() + 8 * intervalNanos;
    int writes = 0;
    // a probe is due only after a whole interval without a completion; on a loaded emulator the
    // guest can stall for longer than that between two writes: such a gap may earn its probes
    long earned = 0;
    long longestGap = 0;
    long last = System.nanoTime();
    while (last < until) {
      await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));
      writes++;
      long now = System.nanoTime();
      long gap = now - last;
      longestGap = Math.max(longestGap, gap);
      if (gap >= intervalNanos) {
        earned += gap / intervalNanos + 1;
      }
      last = now;
    }

    long probes = statsOnItsLoop().keepAliveProbes();
    String during = writes + " writes, the longest gap " + longestGap / 1_000_000 + " ms";
    if (earned == 0) {
      assertEquals(0, probes, "probes during " + during);
    } else { // stalled: no more probes than the idle gaps allowed
      assertTrue(probes <= earned, probes + " probes during " + during + ", " + earned
          + " allowed by the gaps of a whole interval or more");
    }
  }

  /** The client's counters, read on its loop (where they are written), after a zero-byte read. */
  private CompletionStats statsOnItsLoop() {
    return await(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 0)
        .map(v -> pair.client.stats()));
  }
}
