package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.function.IntFunction;

/**
 * One connection's ordered teardown, whatever ends it (its user's close, the peer gone, an
 * event, a failure on the loop): stop taking operations, disconnect, wait for the peer's CLOSED
 * event only when its user closed an open connection, deliver what the device completed, fail
 * the rest, take the fds out of the loop's set, tell the close handler, and only then let
 * librpma delete the connection on a worker. Thread contract: every method on the owning
 * context's loop.
 */
final class ConnectionClosing {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionClosing.class);

  private final ContextInternal context;
  private final ConnectionOptions options;
  private final String description;
  private final SetupCalls setup;
  private final ConnectionState state;
  private final CloseReasons reasons;
  private final IntFunction<Throwable> closedErrorByKind;
  private final OperationMetrics metrics;
  private final InFlight inFlight;
  private final Submitter submitter;
  private final ConnectionTimers timers;
  private final PromiseInternal<Void> established;
  private final Promise<Void> closed;
  private LibrpmaConnection conn;
  private CompletionChannel completions;
  private LoopIo.FdWatch events;
  private Handler<Throwable> closeHandler;
  private boolean closedByUser;

  ConnectionClosing(ContextInternal context, ConnectionOptions options, String description,
      SetupCalls setup, ConnectionState state, CloseReasons reasons,
      IntFunction<Throwable> closedErrorByKind, OperationMetrics metrics, InFlight inFlight,
      Submitter submitter, ConnectionTimers timers, PromiseInternal<Void> established) {
    this.context = context;
    this.options = options;
    this.description = description;
    this.setup = setup;
    this.state = state;
    this.reasons = reasons;
    this.closedErrorByKind = closedErrorByKind;
    this.metrics = metrics;
    this.inFlight = inFlight;
    this.submitter = submitter;
    this.timers = timers;
    this.established = established;
    this.closed = context.promise();
  }

  // what there is to let go, as the start makes it

  void connection(LibrpmaConnection connection) {
    this.conn = connection;
  }

  void completionChannel(CompletionChannel channel) {
    this.completions = channel;
  }

  void eventWatch(LoopIo.FdWatch watch) {
    this.events = watch;
  }

  void closeHandler(Handler<Throwable> handler) {
    this.closeHandler = handler;
  }

  /** Completes when librpma has released the connection, however it ended. */
  Future<Void> whenClosed() {
    return closed.future();
  }

  /** The accept failed: what was preposted fails with the reason; nothing else was made. */
  void abandon(RpmaConnectionClosedException reason) {
    reasons.closing(reason);
    state.toClosed();
    inFlight.failAll(closedErrorByKind);
    metrics.closed();
    closed.tryComplete();
  }

  /** Its user's close, {@code by} naming who closes it (null: its user). */
  Future<Void> close(String by) {
    if (state.live()) {
      closedByUser = true;
      shutdown(reasons.closedByUser(by));
    }
    return closed.future();
  }

  /** Ends it at once (not its user's close: no wait for the peer): the peer is known gone. */
  void peerGone(String why) {
    if (state.live()) {
      shutdown(reasons.peerGone(why));
    }
  }

  /**
   * An exception escaped a loop path ({@link EventPathGuard}): it ends with that reason (or,
   * closing already, its first reason with this one beside it), at once, and drains no more
   * (the path that threw may have been a drain).
   */
  void failed(Throwable t) {
    if (completions != null) {
      completions.stop();
    }
    try {
      if (state.live()) {
        shutdown(reasons.failedOnLoop(t)); // not its user's close: no wait for the peer
      } else {
        reasons.alsoFailed(t);
      }
    } finally {
      finish(); // also if the disconnect threw
    }
  }

  /**
   * Stops taking operations and disconnects: the QP goes to the error state and the device
   * flushes what was posted. An open connection we close waits for the peer's CLOSED event (at
   * most the timeout); in every other case there is nothing to wait for.
   */
  void shutdown(RpmaConnectionClosedException reason) {
    if (!state.live()) {
      return;
    }
    boolean waitForPeer = state.open() && closedByUser;
    state.toClosing();
    reasons.closing(reason);
    established.tryFail(reason);
    submitter.failWaiting(closedErrorByKind);
    boolean sent = conn.disconnect();
    if (waitForPeer && sent) {
      timers.closeDeadline(options.getTimeoutMs(), this::finish);
    } else {
      finish();
    }
  }

  /**
   * Delivers what the device has completed, fails the rest, takes the fds out of the loop's set
   * and only then lets librpma delete the connection (and close its fds).
   */
  void finish() {
    if (state.closed()) {
      return;
    }
    if (completions != null && completions.deferWhileDraining(this::finish)) {
      return; // closed from a completion's listener: the teardown's drain waits for this one
    }
    timers.stopAll();
    if (completions != null) {
      completions.drainAndStop();
    }
    state.toClosed();
    try {
      inFlight.failAll(closedErrorByKind);
      metrics.closed();
    } finally {
      release(); // whatever threw above, the fds and librpma's connection are let go
    }
  }

  /** Out of the loop's set, the close handler told, then librpma's connection deleted. */
  private void release() {
    Future<Void> unwatched = Future.join(
        completions != null ? completions.unwatch() : context.succeededFuture(),
        events != null ? events.unwatch() : context.succeededFuture()).mapEmpty();
    if (!closedByUser && closeHandler != null) {
      Handler<Throwable> handler = closeHandler;
      RpmaConnectionClosedException why = reasons.closeReason();
      context.runOnContext(v -> handler.handle(why));
    }
    unwatched
        .transform(ar -> setup.run(context, conn::delete))
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.warn(description + ": deleting the connection failed", ar.cause());
          }
          closed.tryComplete();
        });
  }
}
