package dev.rpma.vertx.impl.engine;

import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * The post path's last step before the natives: an operation goes out at once if nothing of its
 * queue waits before it and there is room ({@link InFlight}); else it waits, in call order, and
 * goes out as completions free room. Sends and receives wait apart: they use different queues.
 *
 * <p>Thread contract: on the connection's loop only, like a Netty ChannelOutboundBuffer.
 */
final class Submitter {

  private final InFlight inFlight;
  private final ConnectionCounters counters;
  private final BooleanSupplier open;
  private final ArrayDeque<QueuedOp> sendsWaiting = new ArrayDeque<>();
  private final ArrayDeque<QueuedOp> recvsWaiting = new ArrayDeque<>();
  private LibrpmaConnection conn;

  /** {@code open}: whether operations may still be posted. */
  Submitter(InFlight inFlight, ConnectionCounters counters, BooleanSupplier open) {
    this.inFlight = inFlight;
    this.counters = counters;
    this.open = open;
  }

  void attach(LibrpmaConnection conn) {
    this.conn = conn;
  }

  /** Posts now or queues; the connection is open. Takes over the regions' holds. */
  void submit(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
    ArrayDeque<QueuedOp> waiting = OpKind.isReceive(kind) ? recvsWaiting : sendsWaiting;
    if (waiting.isEmpty() && inFlight.hasRoom(kind)) {
      post(kind, local, localOffset, remote, remoteOffset, length, extra, promise);
    } else {
      counters.queued++;
      waiting.add(new QueuedOp(kind, local, localOffset, remote, remoteOffset, length, extra,
          promise));
    }
  }

  /** Posts what waited, in order, while there is room. */
  void postWaiting() {
    postWaiting(sendsWaiting);
    postWaiting(recvsWaiting);
  }

  private void postWaiting(ArrayDeque<QueuedOp> waiting) {
    QueuedOp op;
    // a listener of a failed post may close the connection: check before each one
    while (open.getAsBoolean() && (op = waiting.peek()) != null && inFlight.hasRoom(op.kind())) {
      waiting.poll();
      post(op.kind(), op.local(), op.localOffset(), op.remote(), op.remoteOffset(), op.length(),
          op.extra(), op.promise());
    }
  }

  /** Fails everything still waiting; it will never be posted. */
  void failWaiting(IntFunction<Throwable> errorForKind) {
    failWaiting(sendsWaiting, errorForKind);
    failWaiting(recvsWaiting, errorForKind);
  }

  private static void failWaiting(ArrayDeque<QueuedOp> waiting,
      IntFunction<Throwable> errorForKind) {
    QueuedOp op;
    while ((op = waiting.poll()) != null) {
      op.releaseRegions();
      op.promise().tryFail(errorForKind.apply(op.kind()));
    }
  }

  private void post(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
    long wrId = inFlight.add(kind, promise, local);
    try {
      conn.post(kind, local != null ? local.handle() : 0, localOffset,
          remote != null ? remote.handle() : 0, remoteOffset, length, extra, wrId);
    } catch (RuntimeException refused) {
      inFlight.finish(inFlight.slotOf(wrId), null, refused, null);
    } finally {
      if (remote != null) {
        remote.release(); // the work request carries address and key now
      }
    }
  }
}
