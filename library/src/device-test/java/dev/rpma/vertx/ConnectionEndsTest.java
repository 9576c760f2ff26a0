package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a connection and a request tell of their ends (the addresses librpma lets be known) and
 * how their end is reported: NetSocket's split of exceptions from ends.
 */
@Tag("rdma")
class ConnectionEndsTest {

  private Vertx vertx;
  private String ip;

  @BeforeEach
  void open() {
    ip = RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void aClientConnectionNamesTheServerItReachedAndItsOwnAddressWithTheSourcePort() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      int port = pair.server.actualPort();

      assertEquals(SocketAddress.inetSocketAddress(port, ip), pair.client.remoteAddress());
      assertEquals(ip, pair.client.localAddress().host());
      assertTrue(pair.client.localAddress().port() > 0,
          "the source port the RDMA CM chose: " + pair.client.localAddress());
    }
  }

  @Test
  void anAcceptedConnectionNamesItsClientAsTheClientNamesItself() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      assertEquals(pair.client.localAddress(), pair.serverSide.remoteAddress());
      assertEquals(pair.client.remoteAddress(), pair.serverSide.localAddress());
    }
  }

  @Test
  void aRequestNamesTheListenersAddressAndNoClientBeforeItIsAccepted() {
    RpmaPeer server = await(RpmaPeer.open(vertx, ip));
    RpmaPeer client = await(RpmaPeer.open(vertx, ip));
    Promise<RpmaConnectionRequest> request = Promise.promise();
    RpmaServer listener = await(server.listen(0, ip, req -> {
      request.complete(req);
      req.accept(null);
    }));
    await(client.connect(listener.actualPort(), ip));

    assertEquals(SocketAddress.inetSocketAddress(listener.actualPort(), ip),
        await(request.future()).localAddress());
    assertNull(await(request.future()).remoteAddress());
  }

  @Test
  void aFaultGoesToTheExceptionHandlerThenTheEndHandler() {
    // the server's region takes writes only: a read of it is a remote access error
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(),
        EnumSet.of(MemoryUsage.WRITE_DST))) {
      Promise<Throwable> fault = Promise.promise();
      Promise<Boolean> ended = Promise.promise();
      pair.client.exceptionHandler(fault::tryComplete)
          .endHandler(v -> ended.tryComplete(fault.future().isComplete()));

      Await.awaitFailure(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 64));

      Throwable why = await(fault.future());
      assertInstanceOf(RpmaConnectionClosedException.class, why);
      assertInstanceOf(RpmaCompletionException.class, why.getCause());
      assertTrue(await(ended.future()), "the exception handler ran before the end handler");
    }
  }

  @Test
  void thePeersOrderlyDisconnectEndsTheConnectionWithoutAnException() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      AtomicInteger exceptions = new AtomicInteger();
      Promise<Void> ended = Promise.promise();
      pair.serverSide.exceptionHandler(e -> exceptions.incrementAndGet())
          .endHandler(ended::tryComplete);

      await(pair.client.close());

      await(ended.future());
      assertEquals(0, exceptions.get(), "a disconnect in order is no fault");
    }
  }

  @Test
  void closeEndsTheConnectionForTheEndHandlerWithoutAnException() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      AtomicInteger exceptions = new AtomicInteger();
      Promise<Void> ended = Promise.promise();
      pair.client.exceptionHandler(e -> exceptions.incrementAndGet())
          .endHandler(ended::tryComplete);

      await(pair.client.close());

      await(ended.future());
      assertEquals(0, exceptions.get(), "close() is no fault");
    }
  }
}
