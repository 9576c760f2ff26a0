package dev.rpma.vertx.kotlin

import io.vertx.core.Future
import io.vertx.kotlin.coroutines.coAwait
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive

/*
 * The three ways this module waits for a Future of the library. Which one an operation uses is
 * its cancellation semantics (README.md of this module, "Cancelling"):
 *
 *  - awaitDevice: operations on memory that the device completes by itself (read, write, send,
 *    flush...). RDMA cannot withdraw a posted work request, so a cancelled caller stays
 *    suspended until the device has completed (or the connection failed) the operation, then
 *    throws CancellationException. When such a call returns or throws, the device is done with
 *    its memory: a finally block may reuse the buffer.
 *  - awaitOwned: calls that make something (open, register, connect, listen, accept). The
 *    caller's cancellation is prompt; what arrives after it is closed, since nobody holds it.
 *  - coAwait: closing, which goes on regardless and owns nothing new.
 */

/**
 * Waits for [this] without letting cancellation cut the wait short, then throws the
 * cancellation if the caller was cancelled meanwhile (the operation's own outcome is dropped:
 * the caller asked to stop, and the device is done either way).
 */
internal suspend fun <T> Future<T>.awaitDevice(): T {
  val outcome: Result<T> = if (isComplete) {
    outcomeOf(this)
  } else {
    // suspendCoroutine is not cancellable: only the Future's completion resumes it.
    suspendCoroutine { continuation -> onComplete { continuation.resume(outcomeOf(this)) } }
  }
  currentCoroutineContext().ensureActive()
  return outcome.getOrThrow()
}

/**
 * Waits for [this] promptly cancellable; a value that arrives after the caller was cancelled
 * (or that completes as the caller is cancelled, before it resumes) is handed to [orphaned],
 * which closes it. (A Deferred rather than `resume(value, onCancellation)`: that one is
 * deprecated in kotlinx-coroutines 1.10, and its successor is missing from the 1.8 that
 * Kotlin 1.9 projects use.)
 */
@OptIn(ExperimentalCoroutinesApi::class)
internal suspend fun <T> Future<T>.awaitOwned(orphaned: (T) -> Unit): T {
  val arrived = CompletableDeferred<T>()
  onComplete { ar ->
    if (ar.failed()) {
      arrived.completeExceptionally(ar.cause())
    } else if (!arrived.complete(ar.result())) {
      orphaned(ar.result()) // the caller was cancelled first
    }
  }
  try {
    return arrived.await()
  } catch (e: CancellationException) {
    arrived.cancel(e) // from now on, what arrives is orphaned by the callback above
    if (!arrived.isCancelled) {
      // it arrived while the caller was being cancelled: nobody will take it
      runCatching { arrived.getCompleted() }.onSuccess(orphaned)
    }
    throw e
  }
}

/** Closing: goes on whatever the caller does; cancellation only stops the waiting. */
internal suspend fun Future<Void>.awaitClosed() {
  coAwait()
}

private fun <T> outcomeOf(future: Future<T>): Result<T> =
  if (future.succeeded()) Result.success(future.result()) else Result.failure(future.cause())
