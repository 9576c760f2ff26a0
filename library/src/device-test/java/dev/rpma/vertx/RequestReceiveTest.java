package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Receives posted on a connection request, before the connection exists. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class RequestReceiveTest {

  private Vertx vertx;
  private String ip;
  private RpmaPeer serverPeer;
  private RpmaPeer clientPeer;
  private MemoryRegion inbox;
  private MemoryRegion outbox;

  @BeforeEach
  void start() {
    ip = RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
    serverPeer = await(TestProvider.open(vertx, ip));
    clientPeer = await(TestProvider.open(vertx, ip));
    inbox = await(serverPeer.register(ByteBuffer.allocateDirect(4096), MemoryUsage.RECV));
    outbox = await(clientPeer.register(ByteBuffer.allocateDirect(4096), MemoryUsage.SEND));
  }

  @AfterEach
  void stop() {
    await(clientPeer.close());
    await(serverPeer.close());
    await(vertx.close());
  }

  @Test
  void aReceivePostedOnTheRequestCatchesASendMadeTheMomentTheClientConnects() {
    int port = RdmaTestSupport.nextPort();
    Promise<Future<Received>> posted = Promise.promise();
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> {
      posted.complete(req.recv(inbox, 128, 256));
      req.accept(null);
    }));
    byte[] hello = "sent as soon as connected".getBytes(StandardCharsets.UTF_8);
    outbox.buffer().put(0, hello);

    await(clientPeer.connect(port, ip)
        .compose(conn -> conn.send(outbox, 0, hello.length)));
    Received received = await(await(posted.future()));

    assertEquals(hello.length, received.byteLength());
    byte[] got = new byte[hello.length];
    inbox.buffer().get(128, got);
    assertArrayEquals(hello, got);
    await(server.close());
  }

  @Test
  void receivesPostedOnARejectedRequestFail() {
    int port = RdmaTestSupport.nextPort();
    Promise<Future<Received>> posted = Promise.promise();
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> {
      posted.complete(req.recv(inbox, 0, 64));
      req.reject();
    }));

    Throwable connectFailure =
        awaitFailure(clientPeer.connect(port, ip));
    // rejected, so the server saw the request: its receive is there to wait for (a connect
    // that failed otherwise says so here, not after waiting for a request that never came)
    assertInstanceOf(RpmaConnectionRejectedException.class, connectFailure,
        () -> "the connect failed, but not by the server's rejection: " + connectFailure);
    Throwable failure = awaitFailure(await(posted.future()));

    assertInstanceOf(RpmaConnectionClosedException.class, failure);
    await(server.close());
  }

  @Test
  void aReceiveOnARequestAlreadyAcceptedIsRefused() {
    int port = RdmaTestSupport.nextPort();
    Promise<Future<Received>> late = Promise.promise();
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> {
      req.accept(null);
      late.complete(req.recv(inbox, 0, 64));
    }));

    await(clientPeer.connect(port, ip));
    Throwable failure = awaitFailure(await(late.future()));

    assertInstanceOf(IllegalStateException.class, failure);
    await(server.close());
  }
}
