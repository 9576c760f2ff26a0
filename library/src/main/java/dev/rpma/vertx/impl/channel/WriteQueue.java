package dev.rpma.vertx.impl.channel;

import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The write side's queue, as {@code WriteStream} defines it: messages written and not yet
 * posted (no credit, or no free send buffer), in order. Full at {@code maxSize} messages; the
 * drain handler is called once the queue is back to half of it (as Vert.x's own streams do),
 * and only if it was full since the last drain.
 *
 * <p>A write is counted from the moment it is made, on whatever thread ({@link #reserve}), not
 * when its hop reaches the channel's context ({@link #add}): so {@link #isFull()} bounds a
 * writer on another thread too, even while the loop is busy, as Netty counts a foreign
 * thread's pending writes at once (and so Vert.x's {@code NetSocket}). A write counted is
 * uncounted when the send side takes it ({@link #poll}), when it is refused on the context
 * ({@link #cancel}) or failed ({@link #failAll}).
 *
 * <p>Thread contract: {@link #reserve}, {@link #isFull}, {@link #size} and {@link #maxSize}
 * from any thread; everything else on the channel's context only.
 */
final class WriteQueue {

  record Write(Buffer data, Promise<Void> promise) {
  }

  private final ArrayDeque<Write> writes = new ArrayDeque<>();
  /** Writes made (any thread) and not yet taken, refused or failed. */
  private final AtomicInteger counted = new AtomicInteger();
  private volatile int maxSize;
  /** The queue was full since the last drain; set by whichever thread filled it. */
  private volatile boolean drainWanted;
  /**
   * A drain happened since a handler was last set: the next handler set gets it too, as its
   * writer (on another thread, its handler hopping to the context) may have seen the queue
   * full just before that drain, which then went to the handler before it, or to none.
   */
  private boolean drainPassed;
  private Handler<Void> drainHandler;

  WriteQueue(int maxSize) {
    this.maxSize = maxSize;
  }

  /** A write is made: counted at once, on the writer's thread; {@link #add} follows. */
  void reserve() {
    if (counted.incrementAndGet() >= maxSize) {
      drainWanted = true;
    }
  }

  /** A reserved write reached the context, to be sent in order. */
  void add(Write write) {
    writes.add(write);
  }

  /** A reserved write reached the context and was refused there (the channel was ending). */
  void cancel() {
    counted.decrementAndGet();
  }

  Write poll() {
    Write w = writes.poll();
    if (w != null) {
      counted.decrementAndGet();
    }
    return w;
  }

  /** No write has reached the context and waits (writes still hopping are not seen). */
  boolean isEmpty() {
    return writes.isEmpty();
  }

  /** Writes made and not yet posted, those still hopping to the context included. */
  int size() {
    return counted.get();
  }

  boolean isFull() {
    return counted.get() >= maxSize;
  }

  void maxSize(int maxSize) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("the write queue holds at least 1 message, got "
          + maxSize);
    }
    this.maxSize = maxSize;
    if (counted.get() >= maxSize) {
      drainWanted = true; // full under the new size: a writer that sees it waits for a drain
    }
  }

  /**
   * Sets the handler; the first one set after a drain, while no drain is owed, is called at
   * once (at most one extra call per drain: never a lost one).
   */
  void drainHandler(Handler<Void> handler) {
    this.drainHandler = handler;
    if (handler != null && drainPassed && !drainWanted && !isFull()) {
      drainPassed = false;
      handler.handle(null);
    }
  }

  /** Calls the drain handler if a drain is owed and the queue is down to half. */
  void checkDrain() {
    if (drainWanted && counted.get() <= maxSize / 2) {
      drainWanted = false;
      // a writer on another thread may have filled it again since the read above: then the
      // drain stays owed (its reserve() set the flag after this clear, or is seen here)
      if (counted.get() >= maxSize) {
        drainWanted = true;
        return;
      }
      Handler<Void> h = drainHandler;
      drainPassed = false; // a handler set by this one's call is not called at once
      if (h != null) {
        h.handle(null);
      }
      drainPassed = true;
    }
  }

  /** Fails every write waiting, in order. */
  void failAll(Throwable why) {
    Write w;
    while ((w = poll()) != null) {
      w.promise().tryFail(why);
    }
  }
}
