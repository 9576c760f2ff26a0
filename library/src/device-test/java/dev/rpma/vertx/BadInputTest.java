package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets a clear exception of a stated type; nothing is posted (the connection's
 * completion count does not move) and the connection keeps working.
 */
@Tag("rdma")
class BadInputTest extends SharedLoopbackTestBase {

  /** After each refusal: nothing reached the device, and a good write still works. */
  @AfterEach
  void theConnectionStillWorks() {
    long before = RdmaTestSupport.statsOf(pair.client).completions();
    await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));
    assertEquals(before + 1, RdmaTestSupport.statsOf(pair.client).completions(),
        "only the good write completed: the refused one was never posted");
  }

  private static <T extends Throwable> T refused(Class<T> type, Supplier<Future<?>> call,
      String messagePart) {
    Throwable failure = awaitFailure(call.get());
    T typed = assertInstanceOf(type, failure);
    assertTrue(failure.getMessage().contains(messagePart),
        "message '" + failure.getMessage() + "' says '" + messagePart + "'");
    return typed;
  }

  @Test
  void aReadOnlyBufferIsRefusedAsADestination() {
    for (MemoryUsage destination : EnumSet.of(MemoryUsage.WRITE_DST, MemoryUsage.READ_DST,
        MemoryUsage.RECV)) {
      refused(IllegalArgumentException.class,
          () -> pair.clientPeer.register(ByteBuffer.allocateDirect(64).asReadOnlyBuffer(),
              destination), "a read-only buffer cannot be registered for [" + destination + "]");
    }
  }

  @Test
  void aReadOnlyBufferMayBeRegisteredAsASource() {
    MemoryRegion source = await(pair.clientPeer.register(
        ByteBuffer.allocateDirect(64).asReadOnlyBuffer(), MemoryUsage.WRITE_SRC));
    await(pair.client.write(pair.remote, 0, source, 0, 8));
    await(source.close());
  }

  @Test
  void aNegativeOffsetIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.write(pair.remote, -1, pair.clientRegion, 0, 8), "negative offset");
  }

  @Test
  void aNegativeLengthIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.read(pair.clientRegion, 0, pair.remote, 0, -8), "length");
  }

  @Test
  void anOffsetPlusLengthThatOverflowsIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.write(pair.remote, Long.MAX_VALUE, pair.clientRegion, 0, 8),
        "beyond");
  }

  @Test
  void aRangeBeyondTheLocalRegionIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.write(pair.remote, 0, pair.clientRegion, Loopback.REGION_SIZE - 4, 8),
        "local region");
  }

  @Test
  void aRangeBeyondTheRemoteRegionIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.read(pair.clientRegion, 0, pair.remote, Loopback.REGION_SIZE, 1),
        "remote region");
  }

  @Test
  void aMisalignedAtomicWriteIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.atomicWrite(pair.remote, 4, 1L), "8-byte aligned");
  }

  @Test
  void aRegionUsedForWhatItWasNotRegisteredForIsRefused() {
    MemoryRegion readOnly = await(pair.clientPeer.register(ByteBuffer.allocateDirect(64),
        MemoryUsage.READ_DST));

    refused(IllegalArgumentException.class,
        () -> pair.client.write(pair.remote, 0, readOnly, 0, 8), "not registered for WRITE_SRC");
    await(readOnly.close());
  }

  @Test
  void privateDataOverTheAcceptLimitIsRefusedAndTheRequestCanStillBeRejected() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Promise<Throwable> acceptFailure = Promise.promise();
    RpmaServer server = await(pair.serverPeer.listen(port, ip, new ConnectionOptions(), req ->
        req.accept(new byte[RpmaConnection.MAX_ACCEPT_PRIVATE_DATA + 1]).onComplete(ar -> {
          req.reject();
          acceptFailure.complete(ar.cause());
        })));
    try {
      Throwable connect = awaitFailure(
          pair.clientPeer.connect(port, ip));

      Throwable accept = await(acceptFailure.future());
      assertInstanceOf(IllegalArgumentException.class, accept);
      assertTrue(accept.getMessage().contains("private data"), accept.getMessage());
      assertInstanceOf(RpmaException.class, connect, "the rejected client is told");
    } finally {
      await(server.close());
    }
  }

  @Test
  void aRegionOfAnotherPeerIsRefused() {
    refused(IllegalArgumentException.class,
        () -> pair.client.write(pair.remote, 0, pair.serverRegion, 0, 8), "another peer");
  }

  @Test
  void aHeapBufferCannotBeRegistered() {
    refused(IllegalArgumentException.class,
        () -> pair.clientPeer.register(ByteBuffer.allocate(64), MemoryUsage.WRITE_SRC),
        "direct ByteBuffer");
  }

  @Test
  void aRegionWithNoUsageCannotBeRegistered() {
    refused(IllegalArgumentException.class,
        () -> pair.clientPeer.register(ByteBuffer.allocateDirect(64),
            EnumSet.noneOf(MemoryUsage.class)), "MemoryUsage");
  }

  @Test
  void aClosedLocalRegionIsRefused() {
    MemoryRegion region = await(pair.clientPeer.register(ByteBuffer.allocateDirect(64),
        MemoryUsage.WRITE_SRC));
    await(region.close());

    refused(IllegalStateException.class,
        () -> pair.client.write(pair.remote, 0, region, 0, 8), "closed");
  }

  @Test
  void aClosedRemoteRegionIsRefused() {
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(pair.serverRegion.descriptor());
    await(remote.close());

    refused(IllegalStateException.class,
        () -> pair.client.write(remote, 0, pair.clientRegion, 0, 8), "closed");
  }

  @Test
  void aPortOutOfRangeIsRefused() {
    String ip = RdmaTestSupport.deviceIp();
    refused(IllegalArgumentException.class,
        () -> pair.clientPeer.connect(70000, ip), "port");
  }
}
