package dev.rpma.vertx.impl.channel;

import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;

/**
 * The write side's queue, as {@code WriteStream} defines it: messages written and not yet
 * posted (no credit, or no free send buffer), in order. Full at {@code maxSize} messages; the
 * drain handler is called once the queue is back to half of it (as Vert.x's own streams do),
 * and only if it was full since the last drain. The size is read from any thread
 * ({@code writeQueueFull()}); everything else runs on the channel's context.
 */
final class WriteQueue {

  record Write(Buffer data, Promise<Void> promise) {
  }

  private final ArrayDeque<Write> writes = new ArrayDeque<>();
  private volatile int size;
  private volatile int maxSize;
  private boolean drainWanted;
  private Handler<Void> drainHandler;

  WriteQueue(int maxSize) {
    this.maxSize = maxSize;
  }

  void add(Write write) {
    writes.add(write);
    size = writes.size();
    if (size >= maxSize) {
      drainWanted = true;
    }
  }

  Write peek() {
    return writes.peek();
  }

  Write poll() {
    Write w = writes.poll();
    size = writes.size();
    return w;
  }

  boolean isEmpty() {
    return writes.isEmpty();
  }

  int size() {
    return size;
  }

  boolean isFull() {
    return size >= maxSize;
  }

  void maxSize(int maxSize) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("the write queue holds at least 1 message, got "
          + maxSize);
    }
    this.maxSize = maxSize;
  }

  void drainHandler(Handler<Void> handler) {
    this.drainHandler = handler;
  }

  /** Calls the drain handler if a drain is owed and the queue is down to half. */
  void checkDrain() {
    if (drainWanted && size <= maxSize / 2) {
      drainWanted = false;
      Handler<Void> h = drainHandler;
      if (h != null) {
        h.handle(null);
      }
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
