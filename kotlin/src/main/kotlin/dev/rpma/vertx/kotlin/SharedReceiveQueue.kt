package dev.rpma.vertx.kotlin

import dev.rpma.vertx.CompletionStats
import dev.rpma.vertx.MemoryRegion
import dev.rpma.vertx.RpmaSharedReceiveQueue
import dev.rpma.vertx.SharedReceiveQueueOptions
import dev.rpma.vertx.SharedReceived
import io.vertx.core.Context
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.flow.Flow

/**
 * A shared receive queue ([RpmaSharedReceiveQueue]): one set of receives for the messages of
 * many connections, each message naming its sender. Made by [Peer.createSharedReceiveQueue];
 * connections attach when they are made ([Peer.connect] and [Peer.listen] with `queue`).
 * Receives go to the queue, not to its connections (their [Connection.recv] is refused).
 *
 * Take messages one at a time with [recv], or as a [Flow] with [messages]. Cancelling never
 * withdraws a posted receive (RDMA cannot): see [recvAsync] and [messages] for where the
 * message it takes goes. Closing the queue closes its servers and attached connections first,
 * then fails its posted receives with `RpmaQueueClosedException`.
 *
 * @since 0.1.0
 */
public class SharedReceiveQueue internal constructor(
  /** The library's queue, for the Java API. */
  public val java: RpmaSharedReceiveQueue,
) : SuspendCloseable {

  private val receives = Receives<SharedReceived>()

  /** The state of [messages] per region: its slots' receives outlive a collection. */
  private val slotsByRegion = HashMap<MemoryRegion, QueueMessages>()

  /** The context whose event loop watches the queue; attached connections live on it. */
  public val context: Context get() = java.context()

  /** The options it was made with (a copy). */
  public val options: SharedReceiveQueueOptions get() = java.options()

  /** Counters of its receive CQ (read on its [context] for exact values). */
  public fun stats(): CompletionStats = java.stats()

  /**
   * Receives the next message of any attached connection into [dst] at [offset], at most
   * [length] bytes; the result names the sender ([SharedReceived.sender] as a [Connection]).
   * Cancelled, the caller resumes at once, but the receive stays posted (see [recvAsync]).
   */
  public suspend fun recv(dst: Region, offset: Long, length: Long): SharedReceived =
    receives.await(recvAsync(dst, offset, length), dst, offset, length)

  /**
   * Posts a receive to the queue now and returns its Deferred. Cancelling the Deferred (or a
   * [recv] caller) cannot withdraw the receive: it stays posted and takes a later message of
   * any attached connection, its region stays held ([Region.close] waits for it), and the
   * message goes to [onAbandonedReceive], never dropped silently. Closing the queue fails
   * every posted receive (`RpmaQueueClosedException`).
   */
  public fun recvAsync(dst: Region, offset: Long, length: Long): Deferred<SharedReceived> =
    receives.post(dst, offset, length, java.recv(dst.java, offset, length))

  /**
   * Where messages of receives whose waiter was cancelled go (default: logged as lost), for
   * receives completing from now on.
   */
  public fun onAbandonedReceive(handler: (AbandonedReceive<SharedReceived>) -> Unit) {
    receives.abandonedHandler = handler
  }

  /**
   * The messages of every attached connection, each connection's in the order it sent them,
   * received into [slots] slots of [slotSize] bytes of [region] (registered for `RECV`).
   * Collecting posts a receive per slot; a slot is posted again once the collector's block
   * for its message returns, so [QueueMessage.bytes] is valid only inside that block (copy
   * what you keep). A message longer than [slotSize] fails its receive, and the queue closes
   * the connection that sent it (logged; the Flow goes on).
   *
   * Stopped (cancelled, or the collector threw), the collection leaves its receives posted:
   * RDMA cannot withdraw them. The messages they take wait, in order, for the next
   * collection of [messages] of the same region (a Flow of one state per region, so slots are
   * never posted twice), which starts with them; none is dropped. The region stays held until
   * the queue closes. One collection at a time (a second one fails naming why); the region in
   * other slots is refused. The Flow completes when the queue closes, and throws what else
   * ends it (a bad region or range on the first post).
   */
  public fun messages(region: Region, slotSize: Int, slots: Int = region.slotsOf(slotSize)):
    Flow<QueueMessage> {
    val state = synchronized(slotsByRegion) {
      slotsByRegion.getOrPut(region.java) { QueueMessages(java, region, slotSize, slots) }
    }
    check(state.slotSize == slotSize && state.slots == slots) {
      "messages: $region receives this queue's messages in ${state.slots} slots of " +
          "${state.slotSize} bytes already (its receives stay posted), not $slots of " +
          "$slotSize: call messages with the same slots, or use another region"
    }
    return state.flow()
  }

  /**
   * Closes the servers listening with it and the connections attached to it, fails its
   * posted receives (`RpmaQueueClosedException`), deletes it; returns once deleted. Goes on if
   * the caller is cancelled.
   */
  override suspend fun close(): Unit = java.close().awaitClosed()

  override fun toString(): String = "SharedReceiveQueue(${java.context()})"
}

private val queues = Adapters(::SharedReceiveQueue)

/**
 * This library queue as a [SharedReceiveQueue] of the coroutine API: the same one each time
 * (it keeps the state of [SharedReceiveQueue.messages] and its abandoned-receive handler).
 *
 * @since 0.1.0
 */
public fun RpmaSharedReceiveQueue.suspending(): SharedReceiveQueue = queues.of(this)

/**
 * The connection a message of a [SharedReceiveQueue] came from, as a [Connection].
 *
 * @since 0.1.0
 */
public val SharedReceived.sender: Connection get() = connection().suspending()

/**
 * Makes a shared receive queue on this peer's device, watched on the caller's event loop
 * (connections that attach must be made from it); owned by this peer and the calling context.
 * Cancelled before it is made, the queue is closed when it arrives.
 *
 * @since 0.1.0
 */
public suspend fun Peer.createSharedReceiveQueue(
  options: SharedReceiveQueueOptions = SharedReceiveQueueOptions(),
): SharedReceiveQueue =
  java.createSharedReceiveQueue(options).awaitOwned { it.close() }.suspending()

/** As many slots as fit (a bad [slotSize] is refused by the Flow, naming it). */
private fun Region.slotsOf(slotSize: Int): Int =
  if (slotSize > 0) (size / slotSize).coerceAtMost(Int.MAX_VALUE.toLong()).toInt() else 0
