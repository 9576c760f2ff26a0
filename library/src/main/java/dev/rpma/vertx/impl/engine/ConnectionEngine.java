package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LoopIo;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.function.IntFunction;

/**
 * One librpma connection on its event loop: its life cycle, its CM events, its timers, and the
 * ordered teardown, around the post path ({@link Submitter}) and the completion path
 * ({@link CompletionChannel} -> {@link ConnectionCompletions} -> {@link InFlight} -> the Future).
 *
 * <p>Life cycle: CONNECTING until the ESTABLISHED event, OPEN, then CLOSING (disconnect sent;
 * waiting for the CLOSED event, at most the configured timeout) and CLOSED (every operation
 * failed or completed, fds out of the loop's set, then librpma's connection deleted on a
 * worker). Thread contract: every method on the owning context's loop.
 */
public final class ConnectionEngine {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionEngine.class);

  private enum State { CONNECTING, OPEN, CLOSING, CLOSED }

  private final ContextInternal context;
  private final ConnectionOptions options;
  private final String description;
  private final LoopIo io;
  private final SetupCalls setup;
  private final ConnectionCounters counters = new ConnectionCounters();
  private final CloseReasons reasons;
  private final OperationMetrics metrics;
  private final InFlight inFlight;
  private final Submitter submitter;
  private final ConnectionCompletions completionPath;
  private final ConnectionTimers timers;
  /** Every entry from the loop (fds, timers, tasks): an exception closes the connection. */
  private final EventPathGuard guard;
  private final PromiseInternal<Void> established;
  private final Promise<Void> closed;
  // made once: the completion path allocates nothing per completion beyond the Future's own
  private final IntFunction<Throwable> closedErrorByKind;
  private LibrpmaConnection conn;
  private CompletionChannel completions;
  private LoopIo.FdWatch events;
  private State state = State.CONNECTING;
  private volatile boolean open; // OPEN, for hints on other threads
  private byte[] remotePrivateData = new byte[0];
  private Handler<Throwable> closeHandler;
  private boolean closedByUser;

  public ConnectionEngine(ContextInternal context, ConnectionOptions options, String description,
      LoopIo io, SetupCalls setup, OperationMetrics metrics) {
    this.context = context;
    this.options = options;
    this.description = description;
    this.reasons = new CloseReasons(description);
    this.closedErrorByKind = kind -> reasons.closedError((byte) kind);
    this.io = io;
    this.setup = setup;
    this.metrics = MetricsUntilClosed.gate(metrics); // nothing reaches them after closed()
    this.guard = new EventPathGuard(description, this::failed);
    this.inFlight = new InFlight(options, this.metrics);
    this.submitter = new Submitter(inFlight, counters, this.metrics, this::takesOperations,
        closedErrorByKind);
    this.completionPath = new ConnectionCompletions(description, inFlight, reasons,
        submitter::postWaiting, this::takesOperations, this::onQueuePairError);
    EngineClock clock = io.clock();
    this.timers = new ConnectionTimers(clock, guard,
        new Watchdog(clock, guard, options.getCompletionTimeoutMs(), counters, inFlight,
            this::onStall),
        new KeepAlive(context, clock, guard, options.getKeepAliveMs(), counters, inFlight,
            // a probe is the library's, not the application's: not measured
            probe -> submitter.submit(OpKind.READ, null, 0, null, 0, 0, 0, probe, null), reasons,
            this::shutdown));
    this.established = context.promise();
    this.closed = context.promise();
  }

  /** A receive given on the request, before the connection exists (see {@link InFlight}). */
  public void prepostReceive(QueuedOp r, RequestReceive call) {
    inFlight.prepost(r, call);
  }

  /** The accept failed: what was preposted fails with the reason; nothing else was made. */
  public void abandon(RpmaConnectionClosedException reason) {
    reasons.closing(reason);
    state = State.CLOSED;
    inFlight.failAll(closedErrorByKind);
    metrics.closed();
    closed.tryComplete();
  }

  /**
   * Takes over a librpma connection (client: after rpma_conn_req_connect; server: after the
   * accept): its fds go on the loop; completes at ESTABLISHED. Whatever fails on the way tears
   * the connection down at once: never half started.
   */
  public Future<Void> start(LibrpmaConnection connection) {
    this.conn = connection;
    submitter.attach(connection);
    completionPath.attach(connection);
    timers.connectDeadline(options.getConnectTimeoutMs(), () -> {
      if (state == State.CONNECTING) {
        shutdown(reasons.notEstablished(options.getConnectTimeoutMs()));
      }
    });
    try {
      completions = new CompletionChannel(context, connection, options, io, guard, completionPath,
          counters, e -> shutdown(reasons.completionQueueFailed(e)));
      completions.start()
          .compose(v -> {
            events = io.watch(connection.eventFd(), guard.wrap(this::onEvents));
            return events.start();
          })
          .onFailure(e -> shutdown(reasons.cannotWatch(e)));
    } catch (RuntimeException e) {
      shutdown(reasons.setUpFailed(e));
    }
    return established.future();
  }

  // ---------------------------------------------------------------- CM events

  private void onEvents() {
    while (state != State.CLOSED) {
      CmEvent event;
      try {
        event = conn.nextEvent();
      } catch (RuntimeException e) {
        shutdown(reasons.eventsFailed(e));
        return;
      }
      if (event == CmEvent.NONE) {
        return;
      }
      onEvent(event);
    }
  }

  private void onEvent(CmEvent event) {
    if (event == CmEvent.ESTABLISHED) {
      if (state == State.CONNECTING) {
        state = State.OPEN;
        open = true;
        remotePrivateData = conn.privateData();
        timers.established();
        metrics.opened();
        established.complete();
      }
      return;
    }
    if (state == State.CLOSING && (event == CmEvent.CLOSED || event == CmEvent.LOST)) {
      finish(); // the answer to our disconnect
      return;
    }
    shutdown(reasons.ended(event, conn.eventStatus()));
  }

  // ---------------------------------------------------------------- completions

  /** A receive of its queue pair failed on a shared receive queue: as an error completion. */
  public void onSharedReceiveError(int status, Throwable error) {
    completionPath.onSharedReceiveError(status, error);
  }

  private boolean takesOperations() {
    return state == State.OPEN && !reasons.queuePairFailed();
  }

  /**
   * An error completion puts an RC queue pair in the error state: every later operation would
   * only be flushed (WR_FLUSH_ERR). The connection is closed with that reason, once the drain
   * that delivered it has returned (a teardown drains the CQ; not from inside a drain).
   */
  private void onQueuePairError(byte kind, int status, Throwable error) {
    RpmaConnectionClosedException reason = reasons.queuePairFailed(kind, status,
        conn.statusText(status), error);
    open = false;
    context.runOnContext(guard.handler(v -> shutdown(reason)));
  }

  private void onStall(int inFlightCount) {
    shutdown(reasons.stalled(options.getCompletionTimeoutMs(), inFlightCount,
        inFlight.messageSendsInFlight(), timers.probing()));
  }

  // ---------------------------------------------------------------- posting

  /**
   * Posts (or queues) an operation of the application; its regions are already held, and this
   * takes them over. On a connection that is not open, fails it with the reason it closed.
   */
  public void submit(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
    submitter.submit(kind, local, localOffset, remote, remoteOffset, length, extra, promise,
        metrics.started(kind, length));
  }

  // ---------------------------------------------------------------- the rest

  public void applyRemotePeerConfig(byte[] peerCfgDescriptor) {
    if (state != State.OPEN) {
      throw new IllegalStateException(description + " is closed");
    }
    conn.applyRemotePeerConfig(peerCfgDescriptor);
  }

  public byte[] remotePrivateData() {
    return remotePrivateData.clone();
  }

  public void closeHandler(Handler<Throwable> handler) {
    this.closeHandler = handler;
  }

  public CompletionStats stats() {
    return counters.snapshot();
  }

  /** Whether it takes operations; any thread (it may change right after). */
  public boolean isOpen() {
    return open;
  }

  public String description() {
    return description;
  }

  /** Completes at ESTABLISHED (operations taken from then on); fails if it never got there. */
  public Future<Void> whenEstablished() {
    return established.future();
  }

  /** Completes when librpma has released the connection, however it ended. */
  public Future<Void> whenClosed() {
    return closed.future();
  }

  // ---------------------------------------------------------------- closing

  /** The user's close: completes when librpma has released the connection. */
  public Future<Void> close() {
    return close(null);
  }

  /** The same, {@code by} naming who closes it (an owner: "by vertx.close()"); null: its user. */
  public Future<Void> close(String by) {
    if (state == State.CONNECTING || state == State.OPEN) {
      closedByUser = true;
      shutdown(reasons.closedByUser(by));
    }
    return closed.future();
  }

  /** Ends it at once (not its user's close: no wait for the peer): the peer is known gone. */
  public void peerGone(String why) {
    if (state == State.CONNECTING || state == State.OPEN) {
      shutdown(reasons.peerGone(why));
    }
  }

  /**
   * An exception escaped a loop path ({@link EventPathGuard}): it ends with that reason (or,
   * closing already, its first reason with this one beside it), at once, and drains no more
   * (the path that threw may have been a drain).
   */
  private void failed(Throwable t) {
    if (completions != null) {
      completions.stop();
    }
    try {
      if (state == State.CONNECTING || state == State.OPEN) {
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
  private void shutdown(RpmaConnectionClosedException reason) {
    if (state == State.CLOSING || state == State.CLOSED) {
      return;
    }
    boolean waitForPeer = state == State.OPEN && closedByUser;
    state = State.CLOSING;
    open = false;
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
  private void finish() {
    if (state == State.CLOSED) {
      return;
    }
    if (completions != null && completions.deferWhileDraining(this::finish)) {
      return; // closed from a completion's listener: the teardown's drain waits for this one
    }
    timers.stopAll();
    if (completions != null) {
      completions.drainAndStop();
    }
    state = State.CLOSED;
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
