package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A send that finds no receive posted is not lost: the peer's device answers receiver-not-ready
 * (RNR NAK), the sending device waits its RNR timer (655.36 ms: the IB CM's min_rnr_timer 0 on
 * every queue pair rdma_cm makes; librpma retries without limit) and sends again, and the
 * message lands once a receive is there. This wait is what issue 27's "28 ms per message" was
 * (bench/README.md, "The 28 ms wait"); it is counted here, never timed: the device's RNR NAK
 * counter moves while the send waits.
 */
@Tag("rdma")
class ReceiverNotReadyTest extends DeviceTestBase {

  private static final byte[] MESSAGE = "sent before any receive".getBytes(StandardCharsets.UTF_8);

  @Test
  void aSendThatFindsNoReceiveWaitsForTheRnrTimerAndLandsOnceAReceiveIsPosted() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      long before = ChannelPair.rnrCount(pair.clientPeer);
      assertTrue(before >= 0, "the device shows no rnr counters in sysfs");
      pair.clientRegion.buffer().put(0, MESSAGE);

      Future<Void> send = pair.client.send(pair.clientRegion, 0, MESSAGE.length);
      long waits = awaitRnrNaks(pair.clientPeer, before);
      Future<Received> received = pair.serverSide.recv(pair.serverRegion, 0, 64);
      await(send);
      Received r = await(received);

      byte[] landed = new byte[r.byteLength()];
      pair.serverRegion.buffer().get(0, landed);
      assertTrue(waits >= 1, "the device counted no receiver-not-ready NAK");
      assertArrayEquals(MESSAGE, landed, "the message after the device's RNR retries");
    }
  }

  /** Polls the device's counter until it passes {@code before}: the send is waiting. */
  private static long awaitRnrNaks(RpmaPeer peer, long before) {
    for (int i = 0; i < 600; i++) { // a bound on a hang, not a measurement: up to 60 s
      long now = ChannelPair.rnrCount(peer);
      if (now > before) {
        return now - before;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
    return 0;
  }
}
