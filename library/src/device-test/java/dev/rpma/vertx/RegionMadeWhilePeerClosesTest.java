package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer closed while one of its regions is still being registered (rpma_mr_reg on a worker),
 * as QueueMadeWhilePeerClosesTest for a queue: the peer's delete must come after the region's
 * registration and deregistration, never before (EBUSY, or a registration on a deleted peer).
 */
@Tag("rdma")
class RegionMadeWhilePeerClosesTest extends DeviceTestBase {

  static final int ROUNDS = 50;

  @Test
  void aRegionStillBeingRegisteredWhenItsPeerClosesIsDeregisteredBeforeThePeerGoes() {
    String ip = RdmaTestSupport.deviceIp();
    long pinned = ProcessResources.pinnedKib();
    for (int i = 0; i < ROUNDS; i++) {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      Future<MemoryRegion> registered =
          peer.register(ByteBuffer.allocateDirect(64 * 1024), MemoryUsage.WRITE_DST);
      Future<Void> closed = peer.close();
      await(Future.join(registered, closed).otherwiseEmpty());

      assertTrue(closed.succeeded(), "round " + i + ": the peer closed: " + closed.cause());
      if (registered.failed()) {
        assertTrue(HostileLedger.allowed(registered.cause()),
            "round " + i + ": refused clearly: " + registered.cause());
      }
    }
    assertEquals(pinned, ProcessResources.pinnedKib(), "no region left registered (VmPin)");
  }
}
