package dev.rpma.vertx.kotlin

import io.vertx.core.Future
import io.vertx.core.internal.logging.LoggerFactory
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.ExperimentalCoroutinesApi

/**
 * A receive whose waiter was cancelled: RDMA cannot withdraw it, so it stayed posted and took
 * a message (or failed when the connection or queue closed). The message's bytes are in
 * [region] at [offset]; the device no longer touches them. [M] is what the receive delivers:
 * `Received` on a connection or request, `SharedReceived` (naming the sender) on a
 * [SharedReceiveQueue].
 *
 * @since 0.1.0
 */
public class AbandonedReceive<M : Any> internal constructor(
  public val region: Region,
  public val offset: Long,
  public val length: Long,
  /** The message, or null if the receive failed ([failure]). */
  public val received: M?,
  public val failure: Throwable?,
) {
  override fun toString(): String =
    "AbandonedReceive(offset=$offset, length=$length, received=$received, failure=$failure)"
}

/**
 * The receives of a connection, request or shared receive queue: each one's Future feeds a
 * Deferred; a message whose Deferred was cancelled (or whose waiter was cancelled as it
 * arrived) goes to the abandoned handler, so it is never silently dropped.
 */
internal class Receives<M : Any> {

  var abandonedHandler: (AbandonedReceive<M>) -> Unit = ::logLost

  fun post(dst: Region, offset: Long, length: Long, posted: Future<M>): Deferred<M> {
    val deferred = CompletableDeferred<M>()
    posted.onComplete { ar ->
      val taken = if (ar.succeeded()) deferred.complete(ar.result())
      else deferred.completeExceptionally(ar.cause())
      if (!taken) {
        abandonedHandler(AbandonedReceive(dst, offset, length, ar.result(), ar.cause()))
      }
    }
    return deferred
  }

  /** Waits for [pending]; cancelled, the receive is abandoned and its message handed over. */
  @OptIn(ExperimentalCoroutinesApi::class)
  suspend fun await(pending: Deferred<M>, dst: Region, offset: Long, length: Long): M {
    try {
      return pending.await()
    } catch (e: CancellationException) {
      if (pending.isCompleted && !pending.isCancelled) {
        // it completed while the waiter was being cancelled: the message is there, hand it on
        val received = runCatching { pending.getCompleted() }
        abandonedHandler(AbandonedReceive(dst, offset, length, received.getOrNull(),
            received.exceptionOrNull()))
      } else {
        pending.cancel(e)
      }
      throw e
    }
  }

  private companion object {
    private val LOG = LoggerFactory.getLogger(Receives::class.java)

    fun logLost(abandoned: AbandonedReceive<*>) {
      if (abandoned.received != null) {
        LOG.warn("a message arrived for a receive whose waiter was cancelled, and no " +
            "onAbandonedReceive handler takes it: $abandoned")
      }
    }
  }
}
