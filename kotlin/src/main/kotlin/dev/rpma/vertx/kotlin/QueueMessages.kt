package dev.rpma.vertx.kotlin

import dev.rpma.vertx.RpmaCompletionException
import dev.rpma.vertx.RpmaQueueClosedException
import dev.rpma.vertx.RpmaSharedReceiveQueue
import dev.rpma.vertx.SharedReceived
import io.vertx.core.internal.logging.LoggerFactory
import java.nio.ByteBuffer
import java.util.concurrent.atomic.AtomicBoolean
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow

/**
 * A message of [SharedReceiveQueue.messages]: what arrived, from whom, and where its bytes are.
 * The bytes belong to a slot the Flow posts again once the collector's block returns.
 *
 * @since 0.1.0
 */
public class QueueMessage internal constructor(
  /** The library's record of it: size, immediate data, the sending connection. */
  public val received: SharedReceived,
  /** The region the Flow receives into. */
  public val region: Region,
  /** Where in [region] the message starts (its slot). */
  public val offset: Long,
) {

  /** The connection it came from (to reply on it). */
  public val sender: Connection get() = received.sender

  /** Its length in bytes. */
  public val size: Int get() = received.byteLength()

  /** Its immediate data, or null if it came without. */
  public val immediate: Int? get() = if (received.hasImmediate()) received.immediate() else null

  /** Its bytes in [region]: valid inside the collector's block only (the slot is reused). */
  public fun bytes(): ByteBuffer = region.buffer().slice(offset.toInt(), size)

  /** A copy of its bytes, to keep beyond the collector's block. */
  public fun toByteArray(): ByteArray = ByteArray(size).also { bytes().get(it) }

  override fun toString(): String = "QueueMessage(offset=$offset, $received)"
}

/**
 * The state behind one [SharedReceiveQueue.messages] Flow, kept across its collections: the
 * slots, which of them are posted, and the messages that arrived and were not emitted yet.
 */
internal class QueueMessages(
  private val queue: RpmaSharedReceiveQueue,
  private val region: Region,
  val slotSize: Int,
  val slots: Int,
) {

  /** A posted slot's receive completed: with a message, or failed. */
  private class Arrival(val slot: Int, val received: SharedReceived?, val failure: Throwable?)

  /** Completions in the order the queue delivered them; fed on the queue's context. */
  private val inbox = Channel<Arrival>(Channel.UNLIMITED)

  /** Slots not posted now; touched by the (one) collector only. */
  private val idle = ArrayDeque<Int>()
  private val collecting = AtomicBoolean()
  private var queueClosed = false

  init {
    require(slotSize > 0) { "messages: slotSize must be at least 1, got $slotSize" }
    require(slots > 0 && slots.toLong() * slotSize <= region.size) {
      "messages: $slots slots of $slotSize bytes do not fit in a region of ${region.size} " +
          "bytes: pass a larger region, or fewer or smaller slots"
    }
    repeat(slots) { idle.addLast(it) }
  }

  fun flow(): Flow<QueueMessage> = flow {
    check(collecting.compareAndSet(false, true)) {
      "this messages() Flow is collected already: a queue's slots have one reader; collect " +
          "it once, and share it (shareIn) if several coroutines need the messages"
    }
    try {
      while (!queueClosed) {
        while (idle.isNotEmpty()) {
          post(idle.removeFirst())
        }
        val arrival = inbox.receive()
        val received = arrival.received
        if (received == null) {
          failed(arrival)
          continue
        }
        try {
          emit(QueueMessage(received, region, arrival.slot * slotSize.toLong()))
        } catch (stopped: Throwable) {
          idle.addLast(arrival.slot) // posted again by the next collection
          throw stopped
        }
        idle.addLast(arrival.slot)
      }
    } finally {
      collecting.set(false)
    }
  }

  private fun post(slot: Int) {
    queue.recv(region.java, slot * slotSize.toLong(), slotSize.toLong()).onComplete { ar ->
      inbox.trySend(Arrival(slot, ar.result(), ar.cause()))
    }
  }

  /** The queue closed: the Flow ends. One sender's bad message: logged, the slot reposted. */
  private fun failed(arrival: Arrival) {
    when (val failure = arrival.failure) {
      is RpmaQueueClosedException -> queueClosed = true
      is RpmaCompletionException -> {
        LOG.warn("a receive of the shared receive queue failed; the queue closes the " +
            "connection whose message it was, and messages() goes on: $failure")
        idle.addLast(arrival.slot)
      }
      else -> {
        idle.addLast(arrival.slot)
        throw failure ?: IllegalStateException("a receive completed with neither message nor failure")
      }
    }
  }

  private companion object {
    private val LOG = LoggerFactory.getLogger(QueueMessages::class.java)
  }
}
