package dev.rpma.vertx.kotlin

import io.vertx.core.Promise
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** The waits behind the suspend functions, on plain Vert.x promises (no device). */
class AwaitsTest {

  @Test
  fun aDeviceWaitReturnsTheOperationsResult() = runBlocking {
    val op = Promise.promise<String>()
    val waiter = async(start = CoroutineStart.UNDISPATCHED) { op.future().awaitDevice() }

    op.complete("done")

    assertEquals("done", waiter.await())
  }

  @Test
  fun aDeviceWaitThrowsTheOperationsFailure() = runBlocking {
    val op = Promise.promise<String>()
    val failure = IllegalStateException("failed by the device")
    val waiter = async(start = CoroutineStart.UNDISPATCHED) {
      runCatching { op.future().awaitDevice() }.exceptionOrNull()
    }

    op.fail(failure)

    assertSame(failure, waiter.await())
  }

  @Test
  fun aCancelledDeviceWaitResumesOnlyWhenTheOperationCompletesThenThrowsCancellation() =
    runBlocking {
      val op = Promise.promise<Unit>()
      val events = CopyOnWriteArrayList<String>()
      val waiter = launch(start = CoroutineStart.UNDISPATCHED) {
        try {
          op.future().awaitDevice()
          events += "returned"
        } catch (e: CancellationException) {
          events += "cancelled"
        }
      }

      waiter.cancel()
      repeat(10) { yield() } // anything runnable runs: the waiter must not be among it
      val beforeCompletion = events.toList()
      op.complete(Unit)
      waiter.join()

      assertEquals(listOf<String>(), beforeCompletion)
      assertEquals(listOf("cancelled"), events)
    }

  @Test
  fun anOwnedValueArrivingAfterItsCallerWasCancelledIsClosed() = runBlocking {
    val made = Promise.promise<String>()
    val closed = CopyOnWriteArrayList<String>()
    val caller = launch(start = CoroutineStart.UNDISPATCHED) {
      made.future().awaitOwned { closed += it }
    }

    caller.cancel()
    caller.join() // prompt: the caller is gone before the value exists
    made.complete("connection")

    assertTrue(caller.isCancelled)
    assertEquals(listOf("connection"), closed)
  }

  @Test
  fun anOwnedValueIsReturnedAndNotClosed() = runBlocking {
    val made = Promise.promise<String>()
    val closed = CopyOnWriteArrayList<String>()
    val caller = async(start = CoroutineStart.UNDISPATCHED) {
      made.future().awaitOwned { closed += it }
    }

    made.complete("connection")

    assertEquals("connection", caller.await())
    assertEquals(listOf<String>(), closed)
  }

  @Test
  fun aFailedOwnedWaitThrowsTheFailure() = runBlocking {
    val made = Promise.promise<String>()

    made.fail(IllegalArgumentException("bad port"))

    val e = assertThrows<IllegalArgumentException> { runBlocking { made.future().awaitOwned { } } }
    assertEquals("bad port", e.message)
    assertFalse(made.future().succeeded())
  }
}
