package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The completion side of a connection on its loop: its CQs' fds (or the shared channel's) and
 * the drain continuation's wake-up fd in the loop's set; readiness drains the CQs into the
 * {@link CompletionSink}. Loop-confined.
 */
final class CompletionChannel {

  private final ContextInternal context;
  private final LibrpmaConnection conn;
  private final ConnectionOptions options;
  private final LoopIo io;
  private final EventPathGuard guard;
  private final CompletionSink sink;
  private final ConnectionCounters counters;
  private final Consumer<RuntimeException> onFailure;
  private final List<LoopIo.FdWatch> watches = new ArrayList<>();
  private CompletionQueue mainCq;
  private CompletionQueue recvCq;
  private DrainContinuation continuation;

  CompletionChannel(ContextInternal context, LibrpmaConnection conn, ConnectionOptions options,
      LoopIo io, EventPathGuard guard, CompletionSink sink, ConnectionCounters counters,
      Consumer<RuntimeException> onFailure) {
    this.context = context;
    this.conn = conn;
    this.options = options;
    this.io = io;
    this.guard = guard;
    this.sink = sink;
    this.counters = counters;
    this.onFailure = onFailure;
  }

  /** Puts the fds in the loop's set; completes once all are there. Throws if one is missing. */
  Future<Void> start() {
    int batch = options.getDrainBatch();
    int budget = options.getDrainBudget();
    continuation = new DrainContinuation(io.newWakeupFd(), this::drainAgain);
    Runnable later = continuation::request;
    CompletionSource main = conn.mainCq();
    CompletionSource recv = conn.recvCq();
    long spin = options.getBusyPollMicros() * 1000L;
    EngineClock clock = io.clock();
    mainCq = new CompletionQueue(main, sink, counters, clock, batch, budget, spin, later,
        onFailure);
    recvCq = recv != null ? new CompletionQueue(recv, sink, counters, clock, batch, budget, spin,
        later, onFailure) : null;
    Future<Void> all = watch(continuation.fd(), continuation::onReadable);
    if (options.isSharedCompletionChannel()) {
      return all.compose(v -> watch(conn.sharedChannelFd(), this::onSharedChannelReadable));
    }
    CompletionQueue sends = mainCq;
    all = all.compose(v -> watch(main.fd(), () -> onCqReadable(sends)));
    if (recv != null) {
      CompletionQueue receives = recvCq;
      all = all.compose(v -> watch(recv.fd(), () -> onCqReadable(receives)));
    }
    return all;
  }

  /**
   * A CQ's fd is readable. Not while a continuation is pending: it drains this CQ in the same
   * I/O phase, so draining here too would hold the loop for two budgets in one phase, which is
   * what a saturated connection did at every phase. The event stays unconsumed, the fd readable
   * (level-triggered), so a later phase consumes it once the continuation found the CQ empty.
   */
  private void onCqReadable(CompletionQueue cq) {
    if (!continuation.pending()) {
      cq.onReadable();
    }
  }

  private Future<Void> watch(int fd, Runnable onReadable) {
    LoopIo.FdWatch watch = io.watch(fd, guard.wrap(onReadable));
    watches.add(watch);
    return watch.start();
  }

  /** A drain that used up its budget goes on (from the loop's I/O phase). */
  private void drainAgain() {
    drainBoth();
  }

  private void onSharedChannelReadable() {
    if (continuation.pending()) {
      return; // as onCqReadable: the continuation drains both CQs in this phase
    }
    counters.wakeups++;
    try {
      conn.waitSharedChannel();
    } catch (RuntimeException e) {
      onFailure.accept(e);
      return;
    }
    drainBoth();
  }

  private void drainBoth() {
    mainCq.drainNow();
    if (recvCq != null) {
      recvCq.drainNow();
    }
  }

  /**
   * Whether one of its CQs is being drained now (the caller is a completion's listener); if so,
   * {@code action} runs once that drain has returned, and this returns true.
   */
  boolean deferWhileDraining(Runnable action) {
    for (CompletionQueue cq : new CompletionQueue[] {mainCq, recvCq}) {
      if (cq != null && cq.draining()) {
        cq.outsideDrain(action);
        return true;
      }
    }
    return false;
  }

  /** Delivers what the device completed so far, then drains no more. */
  void drainAndStop() {
    for (CompletionQueue cq : new CompletionQueue[] {mainCq, recvCq}) {
      if (cq != null) {
        cq.drainNow();
      }
    }
    stop();
  }

  /** Drains no more, not even at a close: a drain path threw, what it left is not trusted. */
  void stop() {
    for (CompletionQueue cq : new CompletionQueue[] {mainCq, recvCq}) {
      if (cq != null) {
        cq.stop();
      }
    }
  }

  /**
   * Takes every fd out of the loop's set; completes once the loop let go of all of them (only
   * then may librpma close its fds). The wake-up fd is ours: closed here, once out of the set.
   */
  Future<Void> unwatch() {
    List<Future<Void>> unwatched = new ArrayList<>();
    for (LoopIo.FdWatch w : watches) {
      unwatched.add(w.unwatch());
    }
    return Future.join(unwatched).transform(ar -> {
      if (continuation != null) {
        continuation.close();
      }
      return context.succeededFuture();
    });
  }
}
