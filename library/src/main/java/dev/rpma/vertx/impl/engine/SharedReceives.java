package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * The receives of a shared receive queue: posted ones by wr_id ({@link PendingOps}), and the
 * ones waiting for room, in call order. Room is the queue's flow control: at most
 * min(rqSize, rcqSize) receives posted at once, so that the queue's receive CQ can never be
 * overrun whatever the calls (every posted receive completes there exactly once, and nothing
 * else completes there: the attached connections' sends complete on their own CQs). Each
 * receive is reported to the queue's {@link OperationMetrics} as a connection's are.
 * Loop-confined.
 */
final class SharedReceives {

  private final int limit;
  private final PendingOps pending;
  private final ArrayDeque<QueuedOp> waiting = new ArrayDeque<>();
  private final ConnectionCounters counters;
  private final OperationMetrics metrics;
  private LibrpmaSharedQueue queue;
  private int posted;

  SharedReceives(int rqSize, int rcqSize, ConnectionCounters counters, OperationMetrics metrics) {
    this.limit = Math.min(rqSize, rcqSize);
    this.pending = new PendingOps(limit);
    this.counters = counters;
    this.metrics = metrics;
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
    Object metric = metrics.started(OpKind.RECV, length);
    if (waiting.isEmpty() && posted < limit) {
      post(local, offset, length, promise, metric);
    } else {
      counters.queued++;
      if (metric != null) {
        metrics.queued(metric);
      }
      waiting.add(new QueuedOp(OpKind.RECV, local, offset, null, 0, length, 0, promise, metric));
    }
  }

  private void post(HeldRegion local, long offset, long length, PromiseInternal<?> promise,
      Object metric) {
    posted++;
    if (metric != null) {
      metrics.posted(metric);
    }
    long wrId = pending.add(OpKind.RECV, promise, local, metric);
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
    finish(slot, result, failure, null);
  }

  /**
   * The same, but a message for a connection not usable yet: its Future is not completed here
   * but added to {@code heldBy}, which completes it (and releases its region) later, in order.
   */
  void finishHeld(int slot, Object message, HeldMessages.Queue heldBy) {
    finish(slot, message, null, heldBy);
  }

  private void finish(int slot, Object result, Throwable failure, HeldMessages.Queue heldBy) {
    PromiseInternal<?> promise = pending.promise(slot);
    HeldRegion region = pending.region(slot);
    Object metric = pending.metric(slot);
    pending.remove(slot);
    posted--;
    if (metric != null) { // before what waited goes out: it reports room it frees
      metrics.ended(metric, result, failure);
    }
    QueuedOp next;
    while (posted < limit && (next = waiting.poll()) != null) {
      post(next.local(), next.localOffset(), next.length(), next.promise(), next.metric());
    }
    if (heldBy != null) {
      heldBy.add(promise, region, result);
    } else {
      PendingOps.complete(promise, region, result, failure);
    }
  }

  /** Fails every receive, waiting or posted (the queue is going away); releases their regions. */
  void failAll(Supplier<Throwable> error) {
    QueuedOp op;
    while ((op = waiting.poll()) != null) {
      op.releaseRegions();
      Throwable failure = error.get();
      if (op.metric() != null) {
        metrics.ended(op.metric(), null, failure);
      }
      op.promise().tryFail(failure);
    }
    for (int slot : pending.slotsInUse()) {
      finish(slot, null, error.get());
    }
  }
}
