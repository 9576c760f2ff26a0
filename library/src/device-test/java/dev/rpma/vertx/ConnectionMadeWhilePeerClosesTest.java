package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer closed while one of its connections is still being made: the client's queue pair made
 * on a worker (rpma_conn_req_new) or the server's accept hopping to its loop, after the peer's
 * close already closed what it owned. A connection the closing peer never knew must be deleted
 * before the peer is (else rpma_peer_delete fails with EBUSY, the protection domain and the
 * connection's fds leaked), and its Future must fail, never hang.
 */
@Tag("rdma")
class ConnectionMadeWhilePeerClosesTest extends DeviceTestBase {

  static final int ROUNDS = 30;
  static final int SERVER_CONNECT_MS = 5_000;

  @Test
  void aConnectionStillConnectingWhenItsPeerClosesIsDeletedBeforeThePeer() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer server = await(RpmaPeer.open(vertx, ip));
    int port = RdmaTestSupport.nextPort();
    // a server end whose client was deleted mid-handshake ends when the client's CM rejects its
    // reply, or, if that reject is lost (seen in full suites on a loaded host), at its connect
    // deadline: 5 s here, within the wait below (the default, 30 s, is not)
    ConnectionOptions serverOptions =
        new ConnectionOptions().setConnectTimeoutMs(SERVER_CONNECT_MS);
    await(server.listen(port, ip, serverOptions, req -> req.accept(null)));
    long before = ProcessResources.rdmaFds();
    String beforeTargets = ProcessResources.rdmaFdTargets();
    for (int i = 0; i < ROUNDS; i++) {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      Future<RpmaConnection> connecting = peer.connect(port, ip);
      Future<Void> closed = peer.close();
      await(Future.join(connecting, closed).otherwiseEmpty());

      assertTrue(closed.succeeded(), "round " + i + ": the peer closed: " + closed.cause());
      if (connecting.failed()) {
        assertTrue(HostileLedger.allowed(connecting.cause()),
            "round " + i + ": refused clearly: " + connecting.cause());
      }
    }
    assertFdsBackTo(before, beforeTargets,
        "every connection's fds are closed, its server's end too");
    await(server.close());
  }

  @Test
  void aConnectionStillBeingAcceptedWhenItsPeerClosesIsDeletedBeforeThePeer() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer client = await(RpmaPeer.open(vertx, ip));
    long before = ProcessResources.rdmaFds();
    String beforeTargets = ProcessResources.rdmaFdTargets();
    for (int i = 0; i < ROUNDS; i++) {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      LinkedBlockingQueue<RpmaConnectionRequest> requests = new LinkedBlockingQueue<>();
      int port = RdmaTestSupport.nextPort();
      await(peer.listen(port, ip, new ConnectionOptions(), requests::add));
      Future<RpmaConnection> connecting = client.connect(port, ip);
      RpmaConnectionRequest request = requests.poll(Await.SECONDS,
          TimeUnit.SECONDS);
      assertTrue(request != null, "round " + i + ": the request arrived");
      // from this thread, not the server's loop: the accept hops to the loop while the close
      // goes on here
      Future<RpmaConnection> accepted = request.accept(null);
      Future<Void> closed = peer.close();
      await(Future.join(accepted, closed).otherwiseEmpty());

      assertTrue(closed.succeeded(), "round " + i + ": the peer closed: " + closed.cause());
      if (accepted.failed()) {
        assertTrue(HostileLedger.allowed(accepted.cause()),
            "round " + i + ": refused clearly: " + accepted.cause());
      }
      // the client hears (established, or refused): its connect never hangs
      await(Future.join(connecting, Future.succeededFuture()).otherwiseEmpty());
      if (connecting.failed()) {
        assertTrue(HostileLedger.allowed(connecting.cause()),
            "round " + i + ": the client was refused clearly: " + connecting.cause());
      } else {
        await(connecting.result().close());
      }
    }
    assertFdsBackTo(before, beforeTargets,
        "every accepted connection's fds are closed, its client's end too");
    await(client.close());
  }

  private static void assertFdsBackTo(long before, String beforeTargets, String what) {
    Await.holdsWithin(Duration.ofSeconds(20), () -> ProcessResources.rdmaFds() == before);
    assertEquals(before, ProcessResources.rdmaFds(), () -> what + " (before: " + beforeTargets
        + "; now: " + ProcessResources.rdmaFdTargets() + ")");
  }
}
