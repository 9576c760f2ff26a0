package dev.rpma.vertx.testkit;

import static dev.rpma.vertx.testkit.KitPair.await;
import static dev.rpma.vertx.testkit.KitPair.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaConnectionRejectedException;
import dev.rpma.vertx.RpmaNothingListensException;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The test kit's device keeps RDMA's semantics, on a Vert.x running on NIO. */
class RpmaTestKitTest {

  private static final Set<MemoryUsage> ALL = EnumSet.of(MemoryUsage.READ_SRC,
      MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_VISIBILITY, MemoryUsage.SEND, MemoryUsage.RECV);

  private Vertx vertx;

  @BeforeEach
  void nioVertx() {
    vertx = Vertx.vertx();
    assertFalse(vertx.isNativeTransportEnabled(), "these tests show the kit on NIO");
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void aWriteLandsInThePeersRegionAndAReadBringsItBack() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      byte[] text = "hello, remote memory".getBytes(StandardCharsets.US_ASCII);
      pair.clientRegion.buffer().put(0, text);

      await(pair.client.write(pair.remote, 100, pair.clientRegion, 0, text.length));
      byte[] landed = new byte[text.length];
      pair.serverRegion.buffer().get(100, landed);
      assertArrayEquals(text, landed);

      await(pair.client.read(pair.clientRegion, 1000, pair.remote, 100, text.length));
      byte[] back = new byte[text.length];
      pair.clientRegion.buffer().get(1000, back);
      assertArrayEquals(text, back);
    }
  }

  @Test
  void aWriteIntoARegionWithoutWriteDstFailsWithRemoteAccessError() {
    try (KitPair pair = new KitPair(vertx, EnumSet.of(MemoryUsage.READ_SRC),
        new ConnectionOptions())) {
      Throwable failure = awaitFailure(pair.client.write(pair.remote, 0, pair.clientRegion, 0,
          64));

      RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, e.status());
      assertEquals(0, pair.serverRegion.buffer().get(0), "nothing was written");
    }
  }

  @Test
  void aReadOfARegionWithoutReadSrcFailsWithRemoteAccessError() {
    try (KitPair pair = new KitPair(vertx, EnumSet.of(MemoryUsage.WRITE_DST),
        new ConnectionOptions())) {
      Throwable failure = awaitFailure(pair.client.read(pair.clientRegion, 0, pair.remote, 0,
          64));

      RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, e.status());
    }
  }

  @Test
  void aRegionOfAnotherKitIsNotReachableAsAnUnknownKeyIsNot() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      RpmaPeer elsewhere = await(RpmaTestKit.create().openPeer(vertx, "10.0.2.17"));
      MemoryRegion foreign = await(elsewhere.register(ByteBuffer.allocateDirect(4096), ALL));
      RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(foreign.descriptor());

      Throwable failure = awaitFailure(pair.client.write(remote, 0, pair.clientRegion, 0, 8));

      assertEquals(RpmaCompletionException.REM_ACCESS_ERR,
          assertInstanceOf(RpmaCompletionException.class, failure).status());
      await(elsewhere.close());
    }
  }

  @Test
  void anAtomicWriteStoresEightBytesAndAFlushCompletes() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      await(pair.client.atomicWrite(pair.remote, 64, 0x0102030405060708L));
      await(pair.client.flush(pair.remote, 64, 8, FlushType.VISIBILITY));

      assertEquals(0x0102030405060708L,
          pair.serverRegion.buffer().order(ByteOrder.nativeOrder()).getLong(64));
    }
  }

  @Test
  void aSendWaitsForTheReceiveAndArrivesWithItsImmediateData() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      pair.clientRegion.buffer().put(0, "ping".getBytes(StandardCharsets.US_ASCII));
      Future<Void> sent = pair.client.sendWithImm(pair.clientRegion, 0, 4, 42);
      Future<Received> received = pair.serverSide.recv(pair.serverRegion, 200, 64);

      Received r = await(received);
      await(sent);
      assertEquals(4, r.byteLength());
      assertEquals(42, r.immediate());
      byte[] got = new byte[4];
      pair.serverRegion.buffer().get(200, got);
      assertEquals("ping", new String(got, StandardCharsets.US_ASCII));
    }
  }

  @Test
  void aSendLongerThanTheReceiveFailsBothAsTheDeviceDoes() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      Future<Received> received = pair.serverSide.recv(pair.serverRegion, 0, 16);
      Throwable sendFailure = awaitFailure(pair.client.send(pair.clientRegion, 0, 64));

      assertEquals(11, assertInstanceOf(RpmaCompletionException.class, sendFailure).status());
      Throwable recvFailure = awaitFailure(received);
      assertEquals(2, assertInstanceOf(RpmaCompletionException.class, recvFailure).status());
    }
  }

  @Test
  void privateDataGoesBothWaysAndTheRequestSeesTheClients() {
    RpmaTestKit kit = RpmaTestKit.create();
    RpmaPeer server = await(kit.openPeer(vertx, "10.0.2.15"));
    RpmaPeer client = await(kit.openPeer(vertx, "10.0.2.16"));
    Promise<byte[]> seen = Promise.promise();
    int port = await(server.listen(0, "10.0.2.15", new ConnectionOptions(), null, req -> {
      seen.complete(req.privateData());
      req.accept(new byte[] {7, 8});
    })).actualPort();

    RpmaConnection c = await(client.connect(new RpmaConnectOptions().setHost("10.0.2.15")
        .setPort(port).setPrivateData(new byte[] {1, 2, 3})));

    // as the RDMA CM gives it: what was sent, zeros after it up to the field's size
    byte[] request = await(seen.future());
    assertEquals(RpmaConnection.MAX_CONNECT_PRIVATE_DATA, request.length);
    assertArrayEquals(new byte[] {1, 2, 3, 0}, Arrays.copyOf(request, 4));
    byte[] answer = c.remotePrivateData();
    assertEquals(RpmaConnection.MAX_ACCEPT_PRIVATE_DATA, answer.length);
    assertArrayEquals(new byte[] {7, 8, 0}, Arrays.copyOf(answer, 3));
    await(client.close());
    await(server.close());
  }

  @Test
  void aRejectedRequestFailsTheConnectAsRejected() {
    RpmaTestKit kit = RpmaTestKit.create();
    RpmaPeer server = await(kit.openPeer(vertx, "10.0.2.15"));
    RpmaPeer client = await(kit.openPeer(vertx, "10.0.2.16"));
    int port = await(server.listen(0, "10.0.2.15", new ConnectionOptions(), null,
        req -> req.reject())).actualPort();

    Throwable failure = awaitFailure(client.connect(port, "10.0.2.15"));

    assertInstanceOf(RpmaConnectionRejectedException.class, failure);
    await(client.close());
    await(server.close());
  }

  @Test
  void aConnectWhereNothingListensSaysSo() {
    RpmaTestKit kit = RpmaTestKit.create();
    RpmaPeer client = await(kit.openPeer(vertx, "10.0.2.16"));

    Throwable failure = awaitFailure(client.connect(7999, "10.0.2.15"));

    assertInstanceOf(RpmaNothingListensException.class, failure);
    await(client.close());
  }

  @Test
  void aSharedCompletionChannelIsRefusedWithAMessageSayingTheKitDoesNotModelIt() {
    RpmaTestKit kit = RpmaTestKit.create();
    RpmaPeer client = await(kit.openPeer(vertx, "10.0.2.16"));

    Throwable failure = awaitFailure(client.connect(new RpmaConnectOptions().setHost("10.0.2.15")
        .setPort(7999)
        .setConnectionOptions(new ConnectionOptions().setSharedCompletionChannel(true))));

    assertTrue(failure.getMessage().contains("shared completion channel"),
        failure.getMessage());
    await(client.close());
  }

  @Test
  void aClientsCloseEndsTheServersSide() {
    try (KitPair pair = new KitPair(vertx, ALL, new ConnectionOptions())) {
      Promise<Throwable> ended = Promise.promise();
      pair.serverSide.closeHandler(ended::complete);
      Future<Received> pending = pair.serverSide.recv(pair.serverRegion, 0, 64);

      await(pair.client.close());

      assertInstanceOf(RpmaConnectionClosedException.class, await(ended.future()));
      assertInstanceOf(RpmaConnectionClosedException.class, awaitFailure(pending));
    }
  }
}
