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
    long until = System.nanoTime() + 8L * INTERVAL_MS * 1_000_000;
    int writes = 0;
    while (System.nanoTime() < until) {
      await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));
      writes++;
    }

    assertEquals(0, statsOnItsLoop().keepAliveProbes(), "probes during " + writes + " writes");
  }

  /** The client's counters, read on its loop (where they are written), after a zero-byte read. */
  private CompletionStats statsOnItsLoop() {
    return await(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 0)
        .map(v -> pair.client.stats()));
  }
}
