package dev.rpma.vertx.impl.engine;

import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * The receives of a shared receive queue: posted ones by wr_id ({@link PendingOps}), and the
 * ones waiting for room, in call order. Room is the queue's flow control: at most
 * min(rqSize, rcqSize) receives posted at once, so that the queue's receive CQ can never be
 * overrun whatever the calls (every posted receive completes there exactly once, and nothing
 * else completes there: the attached connections' sends complete on their own CQs).
 * Loop-confined.
 */
final class SharedReceives {

  private final int limit;
  private final PendingOps pending;
  private final ArrayDeque<QueuedOp> waiting = new ArrayDeque<>();
  private final ConnectionCounters counters;
  private LibrpmaSharedQueue queue;
  private int posted;

  SharedReceives(int rqSize, int rcqSize, ConnectionCounters counters) {
    this.limit = Math.min(rqSize, rcqSize);
    this.pending = new PendingOps(limit);
    this.counters = counters;
  }

  void attach(LibrpmaSharedQueue queue) {
    this.queue = queue;
  }

  /** Receives posted and not completed. */
  int posted() {
    return posted;
  }

  /** Posts now if nothing waits and there is room, else queues; takes over the region's hold. */
  void submit(HeldRegion local, long offset, long length, PromiseInternal<?> promise) {
    if (waiting.isEmpty() && posted < limit) {
      post(local, offset, length, promise);
    } else {
      counters.queued++;
      waiting.add(new QueuedOp(OpKind.RECV, local, offset, null, 0, length, 0, promise));
    }
  }

  private void post(HeldRegion local, long offset, long length, PromiseInternal<?> promise) {
    posted++;
    long wrId = pending.add(OpKind.RECV, promise, local);
    try {
      queue.recv(local.handle(), offset, length, wrId);
    } catch (RuntimeException refused) {
      finish(pending.slotOf(wrId), null, refused);
    }
  }

  /** The slot of a wr_id posted here, or -1 (stale or foreign). */
  int slotOf(long wrId) {
    return pending.slotOf(wrId);
  }

  /**
   * Ends a receive: frees its slot and room, posts what waited for that room (before anything
   * this receive's listeners post), completes its Future, and only then releases its region.
   */
  void finish(int slot, Object result, Throwable failure) {
    PromiseInternal<?> promise = pending.promise(slot);
    HeldRegion region = pending.region(slot);
    pending.remove(slot);
    posted--;
    QueuedOp next;
    while (posted < limit && (next = waiting.poll()) != null) {
      post(next.local(), next.localOffset(), next.length(), next.promise());
    }
    PendingOps.complete(promise, region, result, failure);
  }

  /** Fails every receive, waiting or posted (the queue is going away); releases their regions. */
  void failAll(Supplier<Throwable> error) {
    QueuedOp op;
    while ((op = waiting.poll()) != null) {
      op.releaseRegions();
      op.promise().tryFail(error.get());
    }
    for (int slot : pending.slotsInUse()) {
      finish(slot, null, error.get());
    }
  }
}
