package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A raw send longer than the receive the peer posted fails with a message naming that. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class RawSendLengthTest extends DeviceTestBase {

  @Test
  void aSendLongerThanThePostedReceiveSaysSo() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions()
        .setCompletionTimeoutMs(5000))) {
      Future<Received> receive = pair.serverSide.recv(pair.serverRegion, 0, 16);

      Throwable failure = Await.awaitFailure(pair.client.send(pair.clientRegion, 0, 64));
      Throwable receiveFailure = Await.awaitFailure(receive);

      System.out.println("long send: " + failure);
      System.out.println("its receive: " + receiveFailure);
      assertTrue(failure.getMessage().contains("longer than the receive the peer posted"),
          failure.getMessage());
      assertTrue(receiveFailure.getMessage().contains("longer than this receive's length"),
          receiveFailure.getMessage());
    }
  }
}
