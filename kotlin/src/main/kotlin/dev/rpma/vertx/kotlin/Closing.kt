package dev.rpma.vertx.kotlin

import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.withContext

/**
 * What this module's objects that hold native resources have in common: a suspending [close].
 * Kotlin's `use` needs `AutoCloseable`, whose `close()` cannot suspend; [use] is its
 * counterpart for these.
 *
 * @since 0.1.0
 */
public interface SuspendCloseable {
  /** Closes it; see each implementation for what that waits for. */
  public suspend fun close()
}

/**
 * Runs [block] with [this], then closes it, whether [block] returned, threw or was cancelled,
 * as `kotlin.io.use` does for `AutoCloseable`. The close is awaited even when the caller was
 * cancelled (a region's close, for one, returns only when the device is done with its memory),
 * so when `use` returns or throws, the object is closed. A failure of the close is added to
 * [block]'s as suppressed, or thrown if [block] succeeded.
 *
 * @since 0.1.0
 */
public suspend inline fun <T : SuspendCloseable?, R> T.use(block: (T) -> R): R {
  var failure: Throwable? = null
  try {
    return block(this)
  } catch (e: Throwable) {
    failure = e
    throw e
  } finally {
    closeAfterUse(this, failure)
  }
}

/** The close of [use], kept out of line so that the inlined body stays small. */
@PublishedApi
internal suspend fun closeAfterUse(closeable: SuspendCloseable?, failure: Throwable?) {
  if (closeable == null) {
    return
  }
  if (failure == null) {
    withContext(NonCancellable) { closeable.close() }
  } else {
    try {
      withContext(NonCancellable) { closeable.close() }
    } catch (closeFailure: Throwable) {
      failure.addSuppressed(closeFailure)
    }
  }
}
