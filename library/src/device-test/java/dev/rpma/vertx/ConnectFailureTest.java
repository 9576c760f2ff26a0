package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A connect that fails says why with its type: nobody listens, the application rejected, or
 * the server is unreachable; each names the address, the step and the option that bounded it.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class ConnectFailureTest extends DeviceTestBase {

  /** An address of the test bed's subnet that no host has (HostileValues.UNASSIGNED). */
  private static final String UNASSIGNED = "10.0.2.200";

  @Test
  void aPortNobodyListensOnFailsWithNothingListens() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    try {
      Throwable failure = Await.awaitFailure(peer.connect(port, ip));

      System.out.println("nobody listens: " + failure);
      RpmaNothingListensException e = assertInstanceOf(RpmaNothingListensException.class,
          failure);
      assertEquals(ConnectStep.ESTABLISH, e.step());
      assertTrue(e.getMessage().contains(ip + ":" + port), e.getMessage());
      assertTrue(e.getMessage().contains("nothing listens"), e.getMessage());
      // old catch blocks keep catching it
      assertInstanceOf(RpmaConnectionClosedException.class, failure);
    } finally {
      await(peer.close());
    }
  }

  @Test
  void theApplicationsRejectFailsWithConnectionRejected() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    RpmaServer server = await(peer.listen(port, ip, new ConnectionOptions(),
        RpmaConnectionRequest::reject));
    try {
      Throwable failure = Await.awaitFailure(peer.connect(port, ip));

      System.out.println("rejected: " + failure);
      RpmaConnectionRejectedException e = assertInstanceOf(
          RpmaConnectionRejectedException.class, failure);
      assertEquals(ConnectStep.ESTABLISH, e.step());
      assertTrue(e.getMessage().contains(ip + ":" + port), e.getMessage());
      assertTrue(e.getMessage().contains("rejected"), e.getMessage());
    } finally {
      await(server.close());
      await(peer.close());
    }
  }

  @Test
  void aServerClosedBeforeAnsweringFailsWithConnectionRejected() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    io.vertx.core.Promise<Void> requested = io.vertx.core.Promise.promise();
    RpmaServer server = await(peer.listen(port, ip, new ConnectionOptions(),
        req -> requested.complete()));
    try {
      io.vertx.core.Future<RpmaConnection> connect = peer.connect(port, ip);
      await(requested.future());

      await(server.close());

      Throwable failure = Await.awaitFailure(connect);
      assertInstanceOf(RpmaConnectionRejectedException.class, failure);
    } finally {
      await(peer.close());
    }
  }

  @Test
  @Tag("device-only") // address resolution: the test kit reaches no network (its README)
  void anUnassignedAddressFailsAsUnreachableAfterTheConnectTimeoutNotTimeoutMs() {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    try {
      long start = System.nanoTime();
      Throwable failure = Await.awaitFailure(peer.connect(new RpmaConnectOptions()
          .setHost(UNASSIGNED).setPort(7599)
          .setConnectionOptions(
              new ConnectionOptions().setConnectTimeoutMs(2500).setTimeoutMs(500))));
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;

      System.out.println("unassigned, after " + elapsedMs + " ms: " + failure);
      RpmaUnreachableException e = assertInstanceOf(RpmaUnreachableException.class, failure);
      assertEquals(ConnectStep.RESOLVE_ADDRESS, e.step());
      assertEquals("connectTimeoutMs", e.option());
      assertTrue(e.getMessage().contains(UNASSIGNED + ":7599"), e.getMessage());
      assertTrue(e.getMessage().contains("2500 ms (connectTimeoutMs"), e.getMessage());
      // connectTimeoutMs bounded the resolution, not timeoutMs (500)
      assertTrue(elapsedMs >= 2000, "failed after " + elapsedMs + " ms");
    } finally {
      await(peer.close());
    }
  }
}
