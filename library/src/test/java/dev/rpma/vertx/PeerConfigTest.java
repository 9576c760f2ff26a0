package dev.rpma.vertx;

import static dev.rpma.vertx.RdmaTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
