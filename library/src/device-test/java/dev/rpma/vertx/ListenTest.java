package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a listener the device refuses is told: a taken port, an address not this host's. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class ListenTest extends DeviceTestBase {

  /** In the test bed's subnet, on no interface of its guest (nor of the test kit's host). */
  private static final String ANOTHER_HOSTS_ADDRESS = "10.0.2.250";

  @Test
  void listeningOnATakenPortNamesTheCauseAndTheFix() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    await(peer.listen(port, ip, new ConnectionOptions(), req -> req.reject()));

    Throwable failure = Await.awaitFailure(
        peer.listen(port, ip, new ConnectionOptions(), req -> req.reject()));

    RpmaException e = assertInstanceOf(RpmaException.class, failure);
    assertTrue(e.getMessage().contains("port " + port + " on " + ip + " is already in use"),
        e.getMessage());
    assertTrue(e.getMessage().contains("listen once"), e.getMessage());
    assertTrue(e.getMessage().contains("EADDRINUSE (Address already in use)"), e.getMessage());
    await(peer.close());
  }

  @Test
  void listeningAtAnAddressThatIsNotThisHostsIsRefusedNamingTheAddressToGive() {
    RpmaPeer peer = await(TestProvider.open(vertx, RdmaTestSupport.deviceIp()));

    Throwable failure = Await.awaitFailure(peer.listen(RdmaTestSupport.nextPort(),
        ANOTHER_HOSTS_ADDRESS, new ConnectionOptions(), req -> req.reject()));

    RpmaException e = assertInstanceOf(RpmaException.class, failure);
    assertEquals(99, e.errno(), "EADDRNOTAVAIL: " + e.getMessage());
    assertTrue(e.getMessage().startsWith("no interface of this host has address "
        + ANOTHER_HOSTS_ADDRESS + ", so nothing can listen there: listen at the address the"
        + " server's peer was opened on"), e.getMessage());
    assertTrue(e.getMessage().endsWith(
        "errno 99 EADDRNOTAVAIL (Cannot assign requested address)"), e.getMessage());
    await(peer.close());
  }
}
