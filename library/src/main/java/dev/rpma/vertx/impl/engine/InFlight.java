package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.PromiseInternal;
import java.util.function.IntFunction;

/**
 * The operations of a connection that are posted and not yet completed: their wr_ids
 * ({@link PendingOps}), the room they take in the queues ({@link FlowControl}) and the local
 * regions they hold. Loop-confined.
 */
final class InFlight {

  private final FlowControl flow;
  private final PendingOps pending;
  private final OperationMetrics metrics;
  /** Operations posted without a completion of their own, for the next one to complete. */
  private final UnsignalledOps unsignalled;
  /** Sends (with or without immediate data) in flight: what a missing receive would stall. */
  private int messageSends;

  InFlight(ConnectionOptions options, OperationMetrics metrics) {
    this.flow = new FlowControl(options);
    this.pending = new PendingOps(flow.capacity());
    this.metrics = metrics;
    this.unsignalled = new UnsignalledOps(flow.capacity(), flow.sendCapacity());
  }

  /** The most send-queue operations in flight at once. */
  int sendCapacity() {
    return flow.sendCapacity();
  }

  boolean hasRoom(byte kind) {
    return flow.hasRoom(kind);
  }

  /** Reads, writes, flushes and sends in flight (what the watchdog watches). */
  int sendsInFlight() {
    return flow.sendsInFlight();
  }

  /** Sends in flight: each needs a receive posted by the peer. */
  int messageSendsInFlight() {
    return messageSends;
  }

  private static boolean isMessageSend(byte kind) {
    return kind == OpKind.SEND || kind == OpKind.SEND_WITH_IMM;
  }

  /**
   * Takes room and a slot (the caller checked {@link #hasRoom}); returns the wr_id to post.
   * {@code metric}: the operation's token of {@link OperationMetrics}, or null.
   */
  long add(byte kind, PromiseInternal<?> promise, HeldRegion local, Object metric) {
    flow.acquire(kind);
    if (isMessageSend(kind)) {
      messageSends++;
    }
    if (metric != null) {
      metrics.posted(metric);
    }
    return pending.add(kind, promise, local, metric);
  }

  /** A send-queue operation went out; {@code signalled}: with a completion of its own. */
  void posted(long wrId, boolean signalled) {
    unsignalled.posted(wrId, signalled);
  }

  /**
   * The send-queue operation in {@code slot} completed: the send queue completes in post
   * order, so every operation posted before it without a completion of its own is done; they
   * complete now, in order, each as {@link #finish} does: successfully, or, once the queue pair
   * has failed ({@code failedWith} not null: they may have been flushed, not executed), failed
   * with {@code failedWith}'s error for their kind. The operation in {@code slot} itself, if it
   * was one, is only taken out of their list. Returns how many ended.
   */
  int completeUnsignalledBefore(int slot, Runnable beforeCompleting,
      IntFunction<Throwable> failedWith) {
    int ended = 0;
    long wrId;
    while ((wrId = unsignalled.takeOneUpTo(slot)) != UnsignalledOps.NONE) {
      int s = pending.slotOf(wrId);
      if (s >= 0 && s != slot) {
        finish(s, null, failedWith == null ? null : failedWith.apply(pending.kind(s)),
            beforeCompleting);
        ended++;
      }
    }
    return ended;
  }

  /**
   * A receive posted on a connection request, before the connection exists: its wr_id comes
   * from this table, so it completes like any other. Fails its Future alone if there is no
   * room or librpma says no.
   */
  void prepost(QueuedOp r, RequestReceive call) {
    if (!hasRoom(OpKind.RECV)) {
      r.releaseRegions();
      r.promise().tryFail(new IllegalStateException("recv: more receives were posted on the "
          + "request than the receive queue (rqSize) holds"));
      return;
    }
    Object metric = metrics.started(OpKind.RECV, r.length());
    long wrId = add(OpKind.RECV, r.promise(), r.local(), metric);
    try {
      call.post(wrId);
    } catch (RuntimeException e) {
      finish(slotOf(wrId), null, e, null);
    }
  }

  /** The slot of a wr_id in flight, or -1 (stale, foreign, or already completed). */
  int slotOf(long wrId) {
    return pending.slotOf(wrId);
  }

  byte kind(int slot) {
    return pending.kind(slot);
  }

  /**
   * Ends an operation: frees its slot (its wr_id never matches again) and its room, runs
   * {@code beforeCompleting} (operations that waited for that room are posted before anything
   * this operation's listeners post), completes its promise with {@code result} or
   * {@code failure}, and only then releases its local region: a region's close, and what
   * listens to it (a buffer pool, say), never comes before the last operation's own Future.
   */
  void finish(int slot, Object result, Throwable failure, Runnable beforeCompleting) {
    PromiseInternal<?> promise = pending.promise(slot);
    HeldRegion region = pending.region(slot);
    byte kind = pending.kind(slot);
    Object metric = pending.metric(slot);
    flow.release(kind);
    if (isMessageSend(kind)) {
      messageSends--;
    }
    pending.remove(slot);
    if (metric != null) { // before what waited goes out: it reports room it frees
      metrics.ended(metric, result, failure);
    }
    if (beforeCompleting != null) {
      beforeCompleting.run();
    }
    PendingOps.complete(promise, region, result, failure);
  }

  /** Fails every operation in flight (they will never complete now), by kind. */
  void failAll(IntFunction<Throwable> errorForKind) {
    for (int slot : pending.slotsInUse()) {
      finish(slot, null, errorForKind.apply(pending.kind(slot)), null);
    }
    unsignalled.clear();
  }
}
