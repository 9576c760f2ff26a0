package dev.rpma.vertx.kotlin

import dev.rpma.vertx.ConnectionOptions
import dev.rpma.vertx.MessageChannelOptions
import dev.rpma.vertx.MessageChannelStats
import dev.rpma.vertx.RpmaMessageChannel
import io.vertx.core.Context
import io.vertx.core.Vertx
import io.vertx.core.buffer.Buffer
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.resume
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Messages over an RDMA connection ([RpmaMessageChannel]: send/recv with credits) for
 * coroutines: [messages] as a [Flow] and a suspending [send], with back-pressure end to end. A
 * slow collector stops fetching, so the channel holds what arrives in its receive buffers and
 * returns no credit; the peer's writes then wait in its write queue, and its [send] suspends
 * once that queue is full, until this collector catches up. Made by [Peer.connectChannel] or
 * [ConnectionRequest.acceptChannel].
 *
 * @since 0.1.0
 */
public class MessageChannel internal constructor(
  /** The library's channel, for the Java API (ReadStream / WriteStream). */
  public val java: RpmaMessageChannel,
) : SuspendCloseable {

  /** Messages handed over by the channel and not yet emitted, kept across collections. */
  private val inbox = Channel<Buffer>(Channel.UNLIMITED)

  /** Messages asked for (fetched) and not yet emitted: in [inbox] or still to come. */
  private val asked = AtomicInteger()
  private val collecting = AtomicBoolean()

  /** Senders waiting for room in the write queue; on the channel's context only. */
  private val waitingForRoom = ArrayDeque<CancellableContinuation<Unit>>()

  /** The first write that failed after its send returned: the next send or end throws it. */
  @Volatile private var writeFailure: Throwable? = null

  @Volatile private var readFailure: Throwable? = null

  init {
    // Nothing is handed over until a collector fetches: the channel keeps what arrives.
    java.pause()
    java.handler { inbox.trySend(it) }
    java.exceptionHandler { readFailure = readFailure ?: it }
    java.endHandler { inbox.close(readFailure) }
    java.drainHandler { wakeSenders() }
  }

  /** The context the channel runs on (that of its connect or accept). */
  public val context: Context get() = java.context()

  /** The connection the channel runs on (for its addresses, stats and close handler). */
  public val connection: Connection get() = java.connection().suspending()

  /** The largest message the peer takes; larger ones fail [send]. */
  public val maxMessageSize: Int get() = java.maxMessageSize()

  /** The channel's counters (credit, queues, messages). */
  public fun stats(): MessageChannelStats = java.stats()

  /**
   * The messages the peer sends, in order; the Flow completes when the channel ends (the peer
   * ended or closed it, or this side closed it) and throws if it ended with an error. At most
   * [prefetch] messages are asked for ahead of the collector: a collector that stops taking
   * them stops the peer's writer (see the class). One collector at a time (a channel has one
   * reader); messages fetched for a collection that stopped go to the next one, none is lost.
   */
  public fun messages(prefetch: Int = DEFAULT_PREFETCH): Flow<Buffer> {
    require(prefetch > 0) { "messages: prefetch must be at least 1, got $prefetch" }
    return flow {
      check(collecting.compareAndSet(false, true)) {
        "messages() is collected already: a channel has one reader; collect it once, and " +
            "share the Flow (shareIn) if several coroutines need the messages"
      }
      try {
        while (true) {
          askUpTo(prefetch)
          val next = inbox.receiveCatching()
          if (next.isClosed) {
            next.exceptionOrNull()?.let { throw it }
            break
          }
          asked.decrementAndGet()
          emit(next.getOrThrow()) // a slow collector holds here: nothing more is fetched
        }
      } finally {
        collecting.set(false)
      }
    }
  }

  private fun askUpTo(prefetch: Int) {
    val missing = prefetch - asked.get()
    if (missing > 0) {
      asked.addAndGet(missing)
      java.fetch(missing.toLong())
    }
  }

  /**
   * Sends [message] as one message: suspends while the write queue is full (the peer's reader
   * is behind), then queues it and returns; the channel copies it, so [message] may be reused
   * at once. A message over [maxMessageSize] throws `MessageTooLargeException`; a write that
   * fails later (the connection closed) is thrown by the next [send] or [end].
   */
  public suspend fun send(message: Buffer) {
    writeFailure?.let { throw it }
    awaitRoom()
    val written = java.write(message)
    if (written.failed()) {
      throw written.cause() // refused at once: too large, or after end/close
    }
    written.onFailure { if (writeFailure == null) writeFailure = it }
  }

  private suspend fun awaitRoom(): Unit = suspendCancellableCoroutine { waiter ->
    onContext {
      if (java.writeQueueFull()) waitingForRoom.addLast(waiter) else waiter.resume(Unit)
    }
  }

  /** The queue is down to half: every waiting sender goes on (a cancelled one is skipped). */
  private fun wakeSenders() {
    while (waitingForRoom.isNotEmpty() && !java.writeQueueFull()) {
      val waiter = waitingForRoom.removeFirst()
      if (waiter.isActive) {
        waiter.resume(Unit)
      }
    }
  }

  private fun onContext(action: () -> Unit) {
    if (Vertx.currentContext() === context) action() else context.runOnContext { action() }
  }

  /**
   * Ends the channel as `NetSocket.end` does: returns once every message sent so far is sent,
   * then the connection is closed. Throws the first write that failed, if any.
   */
  public suspend fun end() {
    java.end().awaitClosed()
    writeFailure?.let { throw it }
  }

  /** Closes the connection at once: messages not yet sent are dropped (their writes fail). */
  override suspend fun close(): Unit = java.close().awaitClosed()

  override fun toString(): String = "MessageChannel(${java.context()})"

  public companion object {
    /** Messages asked for ahead of a [messages] collector by default. */
    public const val DEFAULT_PREFETCH: Int = 16
  }
}

/**
 * Connects to a server that answers with [ConnectionRequest.acceptChannel]; returns the channel
 * ready to send. Cancelled before that, the channel is closed when it arrives.
 *
 * @since 0.1.0
 */
public suspend fun Peer.connectChannel(
  port: Int,
  host: String,
  connectionOptions: ConnectionOptions = ConnectionOptions(),
  options: MessageChannelOptions = MessageChannelOptions(),
): MessageChannel = RpmaMessageChannel.connect(java, port, host, connectionOptions, options)
  .awaitOwned { it.close() }.suspending()

/**
 * Whether the request came from [connectChannel] (it carries the channel's greeting).
 *
 * @since 0.1.0
 */
public val ConnectionRequest.isChannelRequest: Boolean
  get() = RpmaMessageChannel.isChannelRequest(java)

/**
 * Accepts a request from [connectChannel] as a message channel (receives posted before the
 * accept); returns once established. Cancelled before that, the channel is closed.
 *
 * @since 0.1.0
 */
public suspend fun ConnectionRequest.acceptChannel(
  options: MessageChannelOptions = MessageChannelOptions(),
): MessageChannel = RpmaMessageChannel.accept(java, options)
  .awaitOwned { it.close() }.suspending()

private val channels = Adapters(::MessageChannel)

/**
 * This library channel as a [MessageChannel] of the coroutine API. The adapter takes over the
 * channel's handlers (handler, end, exception, drain: set none of them yourself after), so
 * there is one per channel: a second call returns the same adapter, as do [connectChannel]
 * and [acceptChannel] for the channels they made.
 *
 * @since 0.1.0
 */
public fun RpmaMessageChannel.suspending(): MessageChannel = channels.of(this)
