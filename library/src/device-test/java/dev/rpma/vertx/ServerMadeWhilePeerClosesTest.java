package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer closed while one of its servers is still starting to listen (rpma_ep_listen on a
 * worker; found by HostileSequenceTest, seeds -3807025439009537292 and -7638154474207491764: an
 * rdma_cm fd left open). A server the closing peer never knew must close itself.
 */
@Tag("rdma")
class ServerMadeWhilePeerClosesTest extends DeviceTestBase {

  static final int ROUNDS = 50;

  @Test
  void aServerStillStartingWhenItsPeerClosesStopsListeningAndLeaksNoFd() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    await(await(RpmaPeer.open(vertx, ip)).close()); // what librdmacm opens once, opened
    long before = ProcessResources.rdmaFds();
    for (int i = 0; i < ROUNDS; i++) {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      Future<RpmaServer> listening = peer.listen(RdmaTestSupport.nextPort(), ip,
          new ConnectionOptions(), req -> req.reject());
      Future<Void> closed = peer.close();
      await(Future.join(listening, closed).otherwiseEmpty());

      assertTrue(closed.succeeded(), "round " + i + ": the peer closed: " + closed.cause());
      if (listening.failed()) {
        assertTrue(HostileLedger.allowed(listening.cause()),
            "round " + i + ": refused clearly: " + listening.cause());
      }
    }
    Await.holdsWithin(Duration.ofSeconds(20), () -> ProcessResources.rdmaFds() == before);
    assertEquals(before, ProcessResources.rdmaFds(), "every endpoint's fd is closed");
  }
}
