package dev.rpma.vertx.kotlin

import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** `use {}` for this module's closeables: closed after the block, however it ends. */
class UseTest {

  /** Records its close, which takes a while (as a region's waits for the device). */
  private class Recorder(private val failClose: Throwable? = null) : SuspendCloseable {
    val events = CopyOnWriteArrayList<String>()

    override suspend fun close() {
      delay(50)
      events += "closed"
      failClose?.let { throw it }
    }
  }

  @Test
  fun itClosesAfterTheBlockAndReturnsTheBlocksValue() = runBlocking {
    val closeable = Recorder()

    val value = closeable.use { it.events += "used"; 42 }

    assertEquals(42, value)
    assertEquals(listOf("used", "closed"), closeable.events)
  }

  @Test
  fun itClosesWhenTheBlockThrowsAndAddsAFailedCloseAsSuppressed() = runBlocking {
    val closeFailure = IllegalStateException("close failed")
    val closeable = Recorder(closeFailure)

    val thrown = assertThrows<IllegalArgumentException> {
      runBlocking { closeable.use { throw IllegalArgumentException("the block failed") } }
    }

    assertEquals("the block failed", thrown.message)
    // (coroutines may hand over a copy of an exception, with the stack it crossed)
    val suppressed = thrown.suppressed.single()
    assertEquals(closeFailure.javaClass to closeFailure.message,
        suppressed.javaClass to suppressed.message)
    assertEquals(listOf("closed"), closeable.events)
  }

  @Test
  fun aFailedCloseAfterASuccessfulBlockIsThrown() {
    val closeFailure = IllegalStateException("close failed")

    val thrown = assertThrows<IllegalStateException> {
      runBlocking { Recorder(closeFailure).use { } }
    }

    assertEquals("close failed", thrown.message)
  }

  @Test
  fun aCancelledCallerResumesOnlyOnceTheCloseIsDone() = runBlocking {
    val closeable = Recorder()
    val user = launch(start = CoroutineStart.UNDISPATCHED) {
      try {
        closeable.use { awaitCancellation() }
      } finally {
        closeable.events += "caller resumed"
      }
    }

    user.cancelAndJoin()

    assertEquals(listOf("closed", "caller resumed"), closeable.events)
  }

  @Test
  fun aNullIsNotClosed() = runBlocking {
    val nothing: Recorder? = null

    assertEquals("ran", nothing.use { "ran" })
  }
}
