package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a second listener on a taken port is told. */
@Tag("rdma")
class ListenTest {

  @Test
  void listeningOnATakenPortNamesTheCauseAndTheFix() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      await(peer.listen(port, ip, new ConnectionOptions(), req -> req.reject()));

      Throwable failure = Await.awaitFailure(
          peer.listen(port, ip, new ConnectionOptions(), req -> req.reject()));

      RpmaException e = assertInstanceOf(RpmaException.class, failure);
      assertTrue(e.getMessage().contains("port " + port + " on " + ip + " is already in use"),
          e.getMessage());
      assertTrue(e.getMessage().contains("listen once"), e.getMessage());
      assertTrue(e.getMessage().contains("EADDRINUSE (Address already in use)"), e.getMessage());
    } finally {
      await(vertx.close());
    }
  }
}
