package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The post path's last step before the natives: an operation goes out at once if nothing of its
 * queue waits before it and there is room ({@link InFlight}); else it waits, in call order, and
 * goes out as completions free room. Sends and receives wait apart: they use different queues.
 *
 * <p>Selective signalling: while a batch of completions is being delivered ({@link #collect}
 * until {@link #flushDeferred}), the send-queue operations its listeners post are kept
 * ({@link DeferredPosts}) and go out together when the batch ends, only the last (and every
 * {@link DeferredPosts#MAX_UNSIGNALLED_RUN}th, and all but reads and writes) with a completion
 * of its own; the others complete with it ({@link InFlight#completeUnsignalledBefore}).
 * Receives are never deferred.
 *
 * <p>Thread contract: on the connection's loop only, like a Netty ChannelOutboundBuffer.
 */
final class Submitter {

  /**
   * {@code -Ddev.rpma.selectiveSignalling=false}: every operation with a completion of its own
   * ({@link #collect} then defers nothing). Read once, for the bench's A/B of selective
   * signalling (the perf profile's {@code --no-selective}) and to rule it out when chasing a
   * problem; not an API.
   */
  static final boolean SELECTIVE_SIGNALLING =
      !"false".equals(System.getProperty("dev.rpma.selectiveSignalling"));

  private final InFlight inFlight;
  private final ConnectionCounters counters;
  private final OperationMetrics metrics;
  private final BooleanSupplier open;
  private final IntFunction<Throwable> closedErrorByKind;
  private final ArrayDeque<QueuedOp> sendsWaiting = new ArrayDeque<>();
  private final ArrayDeque<QueuedOp> recvsWaiting = new ArrayDeque<>();
  private final DeferredPosts deferred;
  /** Called when operations were posted without a completion and none can follow them. */
  private final Consumer<RuntimeException> stranded;
  private LibrpmaConnection conn;
  /** A batch of completions is being delivered: send-queue posts wait for its end. */
  private boolean collecting;
  /** Operations posted since the last signalled one, without a completion of their own. */
  private int unsignalledRun;
  /** The refusal of a post that was to be signalled after an unsignalled run; else null. */
  private RuntimeException lastRefusal;

  /**
   * {@code open}: whether operations may still be posted; {@code closedErrorByKind}: what an
   * operation fails with once they may not; {@code stranded}: the last post of a batch was
   * refused after others went out without a completion (their end cannot be known: the
   * connection must close).
   */
  Submitter(InFlight inFlight, ConnectionCounters counters, OperationMetrics metrics,
      BooleanSupplier open, IntFunction<Throwable> closedErrorByKind,
      Consumer<RuntimeException> stranded) {
    this.closedErrorByKind = closedErrorByKind;
    this.stranded = stranded;
    this.deferred = new DeferredPosts(inFlight.sendCapacity());
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
    // a listener of a failed post may close the connection: check before each one. The queue
    // first: it is empty on nearly every completion, which then costs no more than that look
    while ((op = waiting.peek()) != null && open.getAsBoolean() && inFlight.hasRoom(op.kind())) {
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
    if (collecting && !OpKind.isReceive(kind)) {
      deferred.add(kind, local, localOffset, remote, remoteOffset, length, extra, wrId);
    } else if (postNow(kind, local, localOffset, remote, remoteOffset, length, extra, wrId,
        true)) {
      unsignalledRun = 0;
    }
  }

  /** Whether it went out; a refused post fails its operation. */
  private boolean postNow(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, long wrId, boolean signalled) {
    try {
      conn.post(kind, local != null ? local.handle() : 0, localOffset,
          remote != null ? remote.handle() : 0, remoteOffset, length, extra, wrId, signalled);
      if (!OpKind.isReceive(kind)) {
        inFlight.posted(wrId, signalled);
      }
      return true;
    } catch (RuntimeException refused) {
      inFlight.finish(inFlight.slotOf(wrId), null, refused, null);
      if (signalled && unsignalledRun > 0) {
        lastRefusal = refused;
      }
      return false;
    } finally {
      if (remote != null) {
        remote.release(); // the work request carries address and key now
      }
    }
  }

  /** A batch of completions is about to be delivered: posts wait for {@link #flushDeferred}. */
  void collect() {
    collecting = SELECTIVE_SIGNALLING;
  }

  /**
   * The batch was delivered: what its listeners posted goes out, in order, only the last (and
   * every MAX_UNSIGNALLED_RUN-th, and all but reads and writes) signalled. If the one to be
   * signalled is refused, the next is signalled instead; if none is left, the connection is
   * stranded. What a refused post's listeners post meanwhile joins the end of the list.
   */
  void flushDeferred() {
    DeferredPosts d = deferred;
    if (d.count == 0) {
      collecting = false;
      return;
    }
    if (!open.getAsBoolean()) { // closing: their operations fail with the rest in flight
      for (int i = 0; i < d.count; i++) {
        HeldRegion.release(null, d.remotes[i]);
      }
      d.clear();
      collecting = false;
      return;
    }
    for (int i = 0; i < d.count; i++) {
      boolean signalled = i == d.count - 1 || !DeferredPosts.mayGoUnsignalled(d.kinds[i])
          || lastRefusal != null || unsignalledRun >= DeferredPosts.MAX_UNSIGNALLED_RUN - 1;
      if (postNow(d.kinds[i], d.locals[i], d.localOffsets[i], d.remotes[i], d.remoteOffsets[i],
          d.lengths[i], d.extras[i], d.wrIds[i], signalled)) {
        unsignalledRun = signalled ? 0 : unsignalledRun + 1;
        lastRefusal = signalled ? null : lastRefusal;
      }
    }
    d.clear();
    collecting = false;
    if (lastRefusal != null) {
      RuntimeException why = lastRefusal;
      lastRefusal = null;
      stranded.accept(why);
    }
  }
}
