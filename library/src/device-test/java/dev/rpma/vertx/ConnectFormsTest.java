package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static dev.rpma.vertx.SharedQueueFixture.onContext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The NetClient/NetServer habits of connect and listen, each form against the device. */
@Tag("rdma")
class ConnectFormsTest {

  private Vertx vertx;
  private String ip;
  private RpmaPeer server;
  private RpmaPeer client;
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeEach
  void open() {
    ip = RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
    server = await(RpmaPeer.open(vertx, ip));
    client = await(RpmaPeer.open(vertx, ip));
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  private void acceptAll(RpmaConnectionRequest req) {
    requests.incrementAndGet();
    req.accept(null);
  }

  @Test
  void connectByPortAndHostReachesAServerListeningOnThePeersAddress() {
    int port = RdmaTestSupport.nextPort();
    await(server.connectionRequestHandler(this::acceptAll).listen(port));

    RpmaConnection conn = await(client.connect(port, ip));

    assertEquals(1, requests.get());
    await(conn.close());
  }

  @Test
  void connectBySocketAddressReachesAServerListeningOnAHost() {
    int port = RdmaTestSupport.nextPort();
    await(server.listen(port, ip, this::acceptAll));

    RpmaConnection conn = await(client.connect(SocketAddress.inetSocketAddress(port, ip)));

    assertEquals(1, requests.get());
    await(conn.close());
  }

  @Test
  void connectOptionsFromJsonCarryThePrivateDataAndTheConnectionOptions() {
    int port = RdmaTestSupport.nextPort();
    Promise<byte[]> sent = Promise.promise();
    await(server.listen(port, ip, new ConnectionOptions(), req -> {
      sent.tryComplete(req.privateData());
      req.accept(null);
    }));
    JsonObject config = new JsonObject().put("host", ip).put("port", port)
        .put("privateData", new byte[] {4, 2})
        .put("connectionOptions", new JsonObject().put("sqSize", 8).put("timeoutMs", 2000));

    RpmaConnection conn = await(client.connect(new RpmaConnectOptions(config)));

    assertArrayEquals(new byte[] {4, 2}, Arrays.copyOf(await(sent.future()), 2));
    await(conn.close());
  }

  @Test
  void listeningOnPortZeroListensOnAFreePortThatActualPortReports() {
    RpmaServer first = await(server.listen(0, ip, this::acceptAll));
    RpmaServer second = await(server.listen(0, ip, this::acceptAll));

    assertTrue(first.actualPort() > 0, "a port was picked: " + first.actualPort());
    assertNotEquals(first.actualPort(), second.actualPort());
    RpmaConnection conn = await(client.connect(second.actualPort(), ip));
    assertEquals(1, requests.get());
    await(conn.close());
  }

  @Test
  void listeningWithoutARequestHandlerFailsNamingHowToSetOne() {
    Throwable failure = awaitFailure(server.listen(RdmaTestSupport.nextPort()));

    assertInstanceOf(IllegalStateException.class, failure);
    assertTrue(failure.getMessage().contains("connectionRequestHandler"), failure.getMessage());
  }

  @Test
  void aDomainSocketAddressFailsTheConnectNamingTheInetForm() {
    Throwable failure = awaitFailure(client.connect(SocketAddress.domainSocketAddress("/x")));

    assertInstanceOf(IllegalArgumentException.class, failure);
    assertTrue(failure.getMessage().contains("inetSocketAddress(port, host)"),
        failure.getMessage());
  }

  @Test
  void connectOptionsWithoutAHostFailTheConnectNamingTheSetter() {
    Throwable failure = awaitFailure(client.connect(new RpmaConnectOptions().setPort(7000)));

    assertInstanceOf(IllegalArgumentException.class, failure);
    assertTrue(failure.getMessage().contains("setHost"), failure.getMessage());
  }

  @Test
  void aClientConnectedWithAQueueInItsOptionsReceivesThroughTheQueue() {
    int port = RdmaTestSupport.nextPort();
    MemoryRegion outbox = await(server.register(ByteBuffer.allocateDirect(64), MemoryUsage.SEND));
    MemoryRegion inbox = await(client.register(ByteBuffer.allocateDirect(64), MemoryUsage.RECV));
    Promise<RpmaConnection> accepted = Promise.promise();
    await(server.listen(port, ip, req -> req.accept(null).onComplete(accepted)));
    RpmaSharedReceiveQueue queue = await(client.createSharedReceiveQueue(
        new SharedReceiveQueueOptions().setRqSize(4).setRcqSize(4)));
    var received = queue.recv(inbox, 0, 64);

    RpmaConnection conn = await(onContext(queue.context(), () -> client.connect(
        new RpmaConnectOptions().setHost(ip).setPort(port).setSharedReceiveQueue(queue))));
    await(await(accepted.future()).sendWithImm(outbox, 0, 8, 31));

    SharedReceived got = await(received);
    assertEquals(conn, got.connection());
    assertEquals(31, got.immediate());
  }

  @Test
  void aServerListeningWithAQueueReceivesItsClientsMessagesThroughIt() {
    int port = RdmaTestSupport.nextPort();
    MemoryRegion outbox = await(client.register(ByteBuffer.allocateDirect(64), MemoryUsage.SEND));
    MemoryRegion inbox = await(server.register(ByteBuffer.allocateDirect(64), MemoryUsage.RECV));
    RpmaSharedReceiveQueue queue = await(server.createSharedReceiveQueue(
        new SharedReceiveQueueOptions().setRqSize(4).setRcqSize(4)));
    var received = queue.recv(inbox, 0, 64);
    await(onContext(queue.context(), () -> server.listen(port, ip, new ConnectionOptions(), queue,
        this::acceptAll)));

    RpmaConnection conn = await(client.connect(port, ip));
    await(conn.sendWithImm(outbox, 0, 8, 17));

    assertEquals(17, await(received).immediate());
  }
}
