package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
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
  private final OperationMetrics metrics;
  private final BooleanSupplier open;
  private final IntFunction<Throwable> closedErrorByKind;
  private final ArrayDeque<QueuedOp> sendsWaiting = new ArrayDeque<>();
  private final ArrayDeque<QueuedOp> recvsWaiting = new ArrayDeque<>();
  private LibrpmaConnection conn;

  /**
   * {@code open}: whether operations may still be posted; {@code closedErrorByKind}: what an
   * operation fails with once they may not.
   */
  Submitter(InFlight inFlight, ConnectionCounters counters, OperationMetrics metrics,
      BooleanSupplier open, IntFunction<Throwable> closedErrorByKind) {
    this.closedErrorByKind = closedErrorByKind;
    this.inFlight = inFlight;
    this.counters = counters;
    this.metrics = metrics;
    this.open = open;
  }

  void attach(LibrpmaConnection conn) {
    this.conn = conn;
  }

  /**
   * Posts now or queues; on a connection that takes no operations, fails at once with the
   * reason it closed. Takes over the regions' holds. {@code metric}: the operation's token of
   * {@link OperationMetrics}, or null.
   */
  void submit(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise, Object metric) {
    if (!open.getAsBoolean()) {
      HeldRegion.release(local, remote);
      Throwable error = closedErrorByKind.apply(kind);
      if (metric != null) {
        metrics.ended(metric, null, error);
      }
      promise.tryFail(error);
      return;
    }
    ArrayDeque<QueuedOp> waiting = OpKind.isReceive(kind) ? recvsWaiting : sendsWaiting;
    if (waiting.isEmpty() && inFlight.hasRoom(kind)) {
      post(kind, local, localOffset, remote, remoteOffset, length, extra, promise, metric);
    } else {
      counters.queued++;
      if (metric != null) {
        metrics.queued(metric);
      }
      waiting.add(new QueuedOp(kind, local, localOffset, remote, remoteOffset, length, extra,
          promise, metric));
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
          op.extra(), op.promise(), op.metric());
    }
  }

  /** Fails everything still waiting; it will never be posted. */
  void failWaiting(IntFunction<Throwable> errorForKind) {
    failWaiting(sendsWaiting, errorForKind);
    failWaiting(recvsWaiting, errorForKind);
  }

  private void failWaiting(ArrayDeque<QueuedOp> waiting, IntFunction<Throwable> errorForKind) {
    QueuedOp op;
    while ((op = waiting.poll()) != null) {
      op.releaseRegions();
      Throwable error = errorForKind.apply(op.kind());
      if (op.metric() != null) {
        metrics.ended(op.metric(), null, error);
      }
      op.promise().tryFail(error);
    }
  }

  private void post(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise, Object metric) {
    long wrId = inFlight.add(kind, promise, local, metric);
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
