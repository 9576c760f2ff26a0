package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer closed while librpma is still making one of its shared receive queues (found by
 * HostileSequenceTest, seed 1012: a queue made as the last step, everything closed at once).
 * The queue was made, but the closing peer refused it and its engine never took it, so nothing
 * deleted it: its receive CQ's completion channel fd stayed open.
 */
@Tag("rdma")
class QueueMadeWhilePeerClosesTest extends DeviceTestBase {

  @Test
  void aQueueStillBeingMadeWhenItsPeerClosesIsDeletedAndLeaksNoFd() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    await(await(RpmaPeer.open(vertx, ip)).close()); // what librdmacm opens once, opened
    long before = ProcessResources.rdmaFds();

    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    Future<RpmaSharedReceiveQueue> made =
        peer.createSharedReceiveQueue(new SharedReceiveQueueOptions());
    Future<Void> closed = peer.close();
    await(Future.join(made, closed).otherwiseEmpty());

    assertTrue(closed.succeeded(), "the peer closed: " + closed.cause());
    if (made.failed()) {
      assertTrue(HostileLedger.allowed(made.cause()), "refused clearly: " + made.cause());
    }
    Await.holdsWithin(Duration.ofSeconds(20), () -> ProcessResources.rdmaFds() == before);
    assertEquals(before, ProcessResources.rdmaFds(), "the queue's fds are released");
  }
}
