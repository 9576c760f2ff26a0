package dev.rpma.vertx.impl;

import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One peer's set-up calls, run on Vert.x worker threads one at a time in call order.
 *
 * <p>librpma's set-up calls on one peer are not all thread-safe (THREAD_SAFETY.md), so they
 * must not overlap. A lock taken inside {@code executeBlocking} would give that, but every
 * call waiting for it parks a worker thread: concurrent set-ups (a burst of connects) would
 * hold the pool that the application's own blocking code needs. Here a call waits in this
 * queue instead, and is handed to the pool only when the one before it has returned.
 *
 * <p>Thread contract: {@link #submit} from any thread; a call runs on a worker of its
 * context's pool; its result is delivered on that context. What one call wrote is visible
 * to the next: the hand-over goes through this queue's monitor and the pool's executor.
 */
final class SetupQueue {

  /** A call waiting for its turn, with where its result goes. */
  private static final class Waiting<T> {
    private final ContextInternal context;
    private final Callable<T> call;
    private final PromiseInternal<T> result;
    /** The pool began the call: from then on the call itself hands over to the next. */
    private final AtomicBoolean begun = new AtomicBoolean();

    Waiting(ContextInternal context, Callable<T> call) {
      this.context = context;
      this.call = call;
      this.result = context.promise();
    }

    void start(SetupQueue queue) {
      Future<T> ran;
      try {
        ran = context.executeBlocking(() -> {
          begun.set(true);
          try {
            return call.call();
          } finally {
            queue.next(); // the next call may start as soon as this one has returned
          }
        }, false);
      } catch (RuntimeException refused) { // the pool is shut down (Vert.x closing)
        ran = Future.failedFuture(refused);
      }
      ran.onComplete(result);
      if (ran.failed() && begun.compareAndSet(false, true)) {
        queue.next(); // it never ran, so its own hand-over above never comes
      }
    }
  }

  private final ArrayDeque<Waiting<?>> waiting = new ArrayDeque<>();
  /** A call has been handed to the pool and has not returned yet. */
  private boolean running;

  /** Runs {@code call} on a worker once every call submitted before it has returned. */
  <T> Future<T> submit(ContextInternal context, Callable<T> call) {
    Waiting<T> mine = new Waiting<>(context, call);
    boolean first;
    synchronized (this) {
      first = !running;
      running = true;
      if (!first) {
        waiting.add(mine);
      }
    }
    if (first) {
      mine.start(this);
    }
    return mine.result.future();
  }

  private void next() {
    Waiting<?> following;
    synchronized (this) {
      following = waiting.poll();
      if (following == null) {
        running = false;
        return;
      }
    }
    following.start(this);
  }
}
