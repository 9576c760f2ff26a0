package dev.rpma.vertx.kotlin

import dev.rpma.vertx.FlushType
import java.nio.ByteOrder
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/** Every suspend operation does what its Future does, on the real device. */
@Tag("rdma")
class OperationsDeviceTest {

  @Test
  fun aWrittenRangeIsReadBackAfterAFlush() = pairTest { pair ->
    val data = pattern(512, 1)
    pair.clientRegion.put(0, data)

    pair.client.write(pair.remote, 1024, pair.clientRegion, 0, 512)
    pair.client.flush(pair.remote, 1024, 512, FlushType.PERSISTENT)
    pair.client.read(pair.clientRegion, 4096, pair.remote, 1024, 512)

    assertArrayEquals(data, pair.serverRegion.bytes(1024, 512))
    assertArrayEquals(data, pair.clientRegion.bytes(4096, 512))
  }

  @Test
  fun writeAndFlushReturnsWhenTheBytesAreDurableAtThePeer() = pairTest { pair ->
    val data = pattern(256, 2)
    pair.clientRegion.put(256, data)

    pair.client.writeAndFlush(pair.remote, 8192, pair.clientRegion, 256, 256)

    assertArrayEquals(data, pair.serverRegion.bytes(8192, 256))
  }

  @Test
  fun anAtomicWriteStoresEightBytesInMachineOrder() = pairTest { pair ->

    pair.client.atomicWrite(pair.remote, 64, 0x0102030405060708L)

    assertEquals(0x0102030405060708L,
        pair.serverRegion.buffer().order(ByteOrder.nativeOrder()).getLong(64))
  }

  @Test
  fun aSentMessageIsReceivedWithItsImmediateData() = pairTest { pair ->
    val message = pattern(100, 3)
    pair.clientRegion.put(0, message)
    val received = pair.serverSide.recvAsync(pair.serverRegion, 2048, 256)

    pair.client.sendWithImm(pair.clientRegion, 0, 100, 42)

    val got = received.await()
    assertEquals(100, got.byteLength())
    assertTrue(got.hasImmediate())
    assertEquals(42, got.immediate())
    assertArrayEquals(message, pair.serverRegion.bytes(2048, 100))
  }

  @Test
  fun aSuspendedRecvTakesThePlainSendThatFollows() = pairTest { pair ->
    val message = pattern(64, 4)
    pair.clientRegion.put(0, message)
    // started at once, so the receive is posted before the send below
    val received = async(start = CoroutineStart.UNDISPATCHED) {
      pair.serverSide.recv(pair.serverRegion, 0, 64)
    }

    pair.client.send(pair.clientRegion, 0, 64)

    assertEquals(64, received.await().byteLength())
    assertArrayEquals(message, pair.serverRegion.bytes(0, 64))
  }

  @Test
  fun aWriteWithImmediateDataCompletesAReceiveAtThePeer() = pairTest { pair ->
    val data = pattern(128, 5)
    pair.clientRegion.put(0, data)
    val received = pair.serverSide.recvAsync(pair.serverRegion, 0, 0)

    pair.client.writeWithImm(pair.remote, 16384, pair.clientRegion, 0, 128, 7)

    val got = received.await()
    assertTrue(got.hasImmediate())
    assertEquals(7, got.immediate())
    assertArrayEquals(data, pair.serverRegion.bytes(16384, 128))
  }
}
