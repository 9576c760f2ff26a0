package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MemoryRegion
import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.Received
import io.vertx.core.Future
import io.vertx.core.buffer.Buffer
import io.vertx.core.Promise
import java.nio.ByteBuffer
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Receives whose waiter gives up hand their message over (no device: promises stand in). */
class ReceivesTest {

  private val region = Region(object : MemoryRegion {
    override fun buffer(): ByteBuffer = ByteBuffer.allocate(0)
    override fun size(): Long = 4096
    override fun usages(): Set<MemoryUsage> = setOf(MemoryUsage.RECV)
    override fun descriptor(): ByteArray = ByteArray(0)
    override fun slice(offset: Long, length: Int): Buffer = Buffer.buffer(length)
    override fun window(offset: Long, length: Int): ByteBuffer = ByteBuffer.allocate(length)
    override fun persistentMemory(): Boolean = false
    override fun close(): Future<Void> = Future.succeededFuture()
  })

  @Test
  fun aReceiveReturnsItsMessage() = runBlocking {
    val posted = Promise.promise<Received>()
    val receives = Receives<Received>()
    val caller = async(start = CoroutineStart.UNDISPATCHED) {
      receives.await(receives.post(region, 0, 64, posted.future()), region, 0, 64)
    }

    posted.complete(Received(10, false, 0))

    assertEquals(10, caller.await().byteLength())
  }

  @Test
  fun theMessageOfAReceiveWhoseCallerWasCancelledGoesToTheAbandonedHandler() = runBlocking {
    val posted = Promise.promise<Received>()
    val receives = Receives<Received>()
    val handedOver = CopyOnWriteArrayList<AbandonedReceive<Received>>()
    receives.abandonedHandler = { handedOver += it }
    val caller = launch(start = CoroutineStart.UNDISPATCHED) {
      receives.await(receives.post(region, 128, 64, posted.future()), region, 128, 64)
    }

    caller.cancel()
    caller.join() // prompt: a receive waits for the peer, which may never send
    posted.complete(Received(42, true, 7))

    assertTrue(caller.isCancelled)
    assertEquals(1, handedOver.size)
    assertEquals(42, handedOver[0].received!!.byteLength())
    assertEquals(128, handedOver[0].offset)
    assertSame(region, handedOver[0].region)
  }

  @Test
  fun aReceiveWhoseDeferredWasCancelledHandsOverItsFailureToo() = runBlocking {
    val posted = Promise.promise<Received>()
    val receives = Receives<Received>()
    val handedOver = CopyOnWriteArrayList<AbandonedReceive<Received>>()
    receives.abandonedHandler = { handedOver += it }
    val deferred = receives.post(region, 0, 64, posted.future())

    deferred.cancel()
    val closed = IllegalStateException("connection closed")
    posted.fail(closed)

    assertEquals(1, handedOver.size)
    assertSame(closed, handedOver[0].failure)
  }
}
