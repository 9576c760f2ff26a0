package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Null arguments fail the Future, like other bad input, with a message naming them. */
@Tag("rdma")
class NullArgumentTest extends DeviceTestBase {

  private static void assertFailsNaming(io.vertx.core.Future<?> call, String message) {
    Throwable failure = Await.awaitFailure(call);
    assertInstanceOf(IllegalArgumentException.class, failure);
    assertTrue(failure.getMessage().startsWith(message), failure.getMessage());
  }

  @Test
  void registerWithANullBufferNamesIt() {
    RpmaPeer peer = await(RpmaPeer.open(vertx, RdmaTestSupport.deviceIp()));
    try {
      assertFailsNaming(peer.register(null, MemoryUsage.SEND), "buffer must not be null");
    } finally {
      await(peer.close());
    }
  }

  @Test
  void registerWithANullUsageNamesIt() {
    RpmaPeer peer = await(RpmaPeer.open(vertx, RdmaTestSupport.deviceIp()));
    try {
      assertFailsNaming(peer.register(ByteBuffer.allocateDirect(64), (MemoryUsage) null),
          "usages must not be null");
    } finally {
      await(peer.close());
    }
  }

  @Test
  void connectToANullAddressNamesIt() {
    RpmaPeer peer = await(RpmaPeer.open(vertx, RdmaTestSupport.deviceIp()));
    try {
      assertFailsNaming(peer.connect(7599, null), "address must not be null");
    } finally {
      await(peer.close());
    }
  }
}
