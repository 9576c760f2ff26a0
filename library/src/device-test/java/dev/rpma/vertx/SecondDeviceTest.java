package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client whose peer is on another device than the server's: on the device it connects, as
 * from another host; the test kit cannot join two kits (each is one in-JVM device, no wire
 * between them), so it says so instead of reporting that nothing listens.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class SecondDeviceTest extends DeviceTestBase {

  @Test
  void aClientOnAnotherDeviceConnectsOrTheKitSaysItCannotJoinTwoKits() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer serverPeer = await(TestProvider.open(vertx, ip));
    RpmaPeer clientPeer = await(TestProvider.openOnAnotherDevice(vertx, ip));
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(),
        req -> req.accept(null)));
    try {
      if (!TestProvider.onTestKit()) {
        await(await(clientPeer.connect(port, ip)).close());
        return;
      }
      Throwable failure = Await.awaitFailure(clientPeer.connect(port, ip));

      assertEquals(UnsupportedOperationException.class, failure.getClass(),
          String.valueOf(failure));
      String message = failure.getMessage();
      assertTrue(message.contains(ip + ":" + port), message);
      assertTrue(message.contains("another RpmaTestKit"), message);
      assertTrue(message.contains("one RpmaTestKit"), message);
    } finally {
      await(server.close());
      await(clientPeer.close());
      await(serverPeer.close());
    }
  }
}
