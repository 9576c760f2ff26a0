package dev.rpma.vertx.impl;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lifetime of a native object used from several event loops: users {@link #tryAcquire()} it
 * for as long as native code may touch it, and it is freed once, after {@link #close()}, when
 * the last user has released it. Use after close is refused, never a use-after-free.
 */
public final class RefCounted {

  private static final int CLOSED = 1;
  private static final int ONE_USER = 2;

  private final AtomicInteger state = new AtomicInteger();
  private final Runnable free;

  /** {@code free} runs exactly once, on the thread of the last release (or of close). */
  public RefCounted(Runnable free) {
    this.free = free;
  }

  /** False once closed: the caller must not touch the native object. */
  public boolean tryAcquire() {
    for (;;) {
      int s = state.get();
      if ((s & CLOSED) != 0) {
        return false;
      }
      if (state.compareAndSet(s, s + ONE_USER)) {
        return true;
      }
    }
  }

  public void release() {
    int s = state.addAndGet(-ONE_USER);
    if (s == CLOSED) {
      free.run();
    }
  }

  /** Returns false if it was already closed. */
  public boolean close() {
    for (;;) {
      int s = state.get();
      if ((s & CLOSED) != 0) {
        return false;
      }
      if (state.compareAndSet(s, s | CLOSED)) {
        if (s == 0) {
          free.run();
        }
        return true;
      }
    }
  }

  public boolean isClosed() {
    return (state.get() & CLOSED) != 0;
  }
}
