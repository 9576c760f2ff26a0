package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** applyRemotePeerConfig reports its errors to its caller, on the caller's thread. */
@Tag("rdma")
class PeerConfigTest {

  @Test
  void aNullPeerConfigIsRefusedOnTheCallingThread() {
    io.vertx.core.Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> pair.client.applyRemotePeerConfig(null));
      assertTrue(e.getMessage().contains("null"), e.getMessage());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void aPeerConfigOnAClosedConnectionIsRefusedOnTheCallingThread() {
    io.vertx.core.Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      await(pair.client.close());
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> pair.client.applyRemotePeerConfig(PeerConfig.create(true)));
      assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    } finally {
      await(vertx.close());
    }
  }

  /**
   * Found by HostileSequenceTest (seed 1035): checked open on the caller's thread, the
   * configuration hops to the loop, and the connection closes before it arrives. It once threw
   * there, into Netty's task runner ("A task raised an exception"), where no caller sees it.
   */
  @Test
  void aConnectionClosedWhileItsPeerConfigHopsToTheLoopRaisesNothingThere() throws Exception {
    io.vertx.core.Vertx vertx = RdmaTestSupport.nativeVertx();
    HostileLogWatch logged = HostileLogWatch.start();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      CountDownLatch called = new CountDownLatch(1);
      Promise<Void> closedOnLoop = Promise.promise();
      // the loop held until the configuration is on its way; then the close comes first
      pair.client.context().runOnContext(v -> {
        try {
          called.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        pair.client.close();
        closedOnLoop.complete();
      });
      pair.client.applyRemotePeerConfig(PeerConfig.create(true)); // open: it hops
      called.countDown();
      await(closedOnLoop.future());
      RdmaTestSupport.settle(pair.client); // queued behind the hop: the hop has run

      assertEquals(List.of(), logged.drain());
    } finally {
      logged.close();
      await(vertx.close());
    }
  }
}
