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
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.function.IntFunction;

/**
 * One librpma connection on its event loop: its start, its CM events and its timers, around the
 * post path ({@link Submitter}) and the completion path ({@link CompletionChannel} ->
 * {@link ConnectionCompletions} -> {@link InFlight} -> the Future); its ordered teardown is
 * {@link ConnectionClosing}'s.
 *
 * <p>Life cycle ({@link ConnectionState}): CONNECTING until the ESTABLISHED event, OPEN, then
 * CLOSING (disconnect sent; waiting for the CLOSED event, at most the configured timeout) and
 * CLOSED (every operation failed or completed, fds out of the loop's set, then librpma's
 * connection deleted on a worker). Thread contract: every method on the owning context's loop.
 */
public final class ConnectionEngine {

  private final ContextInternal context;
  private final ConnectionOptions options;
  private final String description;
  private final LoopIo io;
  private final ConnectionState state = new ConnectionState();
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
  private final ConnectionClosing closing;
  // made once: the completion path allocates nothing per completion beyond the Future's own
  private final IntFunction<Throwable> closedErrorByKind;
  private LibrpmaConnection conn;
  private byte[] remotePrivateData = new byte[0];

  public ConnectionEngine(ContextInternal context, ConnectionOptions options, String description,
      LoopIo io, SetupCalls setup, OperationMetrics metrics) {
    this.context = context;
    this.options = options;
    this.description = description;
    this.reasons = new CloseReasons(description);
    this.closedErrorByKind = kind -> reasons.closedError((byte) kind);
    this.io = io;
    this.metrics = MetricsUntilClosed.gate(metrics); // nothing reaches them after closed()
    this.guard = new EventPathGuard(description, this::failed);
    this.inFlight = new InFlight(options, this.metrics);
    this.submitter = new Submitter(inFlight, counters, this.metrics, this::takesOperations,
        closedErrorByKind, refused -> shutdown(reasons.postsStranded(refused)));
    this.completionPath = new ConnectionCompletions(description, inFlight, reasons, submitter,
        counters, this::takesOperations, this::onQueuePairError);
    EngineClock clock = io.clock();
    this.timers = new ConnectionTimers(clock, guard,
        new Watchdog(clock, guard, options.getCompletionTimeoutMs(), counters, inFlight,
            this::onStall),
        new KeepAlive(context, clock, guard, options.getKeepAliveMs(), counters, inFlight,
            // a probe is the library's, not the application's: not measured
            probe -> submitter.submit(OpKind.READ, null, 0, null, 0, 0, 0, probe, null), reasons,
            this::shutdown));
    this.established = context.promise();
    this.closing = new ConnectionClosing(context, options, description, setup, state, reasons,
        closedErrorByKind, this.metrics, inFlight, submitter, timers, established);
  }

  /** A receive given on the request, before the connection exists (see {@link InFlight}). */
  public void prepostReceive(QueuedOp r, RequestReceive call) {
    inFlight.prepost(r, call);
  }

  /** The accept failed: what was preposted fails with the reason; nothing else was made. */
  public void abandon(RpmaConnectionClosedException reason) {
    closing.abandon(reason);
  }

  /**
   * Takes over a librpma connection (client: after rpma_conn_req_connect; server: after the
   * accept): its fds go on the loop; completes at ESTABLISHED. Whatever fails on the way tears
   * the connection down at once: never half started.
   */
  public Future<Void> start(LibrpmaConnection connection) {
    this.conn = connection;
    closing.connection(connection);
    submitter.attach(connection);
    completionPath.attach(connection);
    timers.connectDeadline(options.getConnectTimeoutMs(), () -> {
      if (state.connecting()) {
        shutdown(reasons.notEstablished(options.getConnectTimeoutMs()));
      }
    });
    try {
      CompletionChannel completions = new CompletionChannel(context, connection, options, io,
          guard, completionPath, counters, e -> shutdown(reasons.completionQueueFailed(e)));
      closing.completionChannel(completions);
      completions.start()
          .compose(v -> {
            LoopIo.FdWatch events = io.watch(connection.eventFd(), guard.wrap(this::onEvents));
            closing.eventWatch(events);
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
    while (!state.closed()) {
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
      if (state.connecting()) {
        state.toOpen();
        remotePrivateData = conn.privateData();
        timers.established();
        metrics.opened();
        established.complete();
      }
      return;
    }
    if (state.closing() && (event == CmEvent.CLOSED || event == CmEvent.LOST)) {
      closing.finish(); // the answer to our disconnect
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
    return state.open() && !reasons.queuePairFailed();
  }

  /**
   * An error completion puts an RC queue pair in the error state: every later operation would
   * only be flushed (WR_FLUSH_ERR). The connection is closed with that reason, once the drain
   * that delivered it has returned (a teardown drains the CQ; not from inside a drain).
   */
  private void onQueuePairError(byte kind, int status, Throwable error) {
    RpmaConnectionClosedException reason = reasons.queuePairFailed(kind, status,
        conn.statusText(status), error);
    state.queuePairFailed();
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
    if (!state.open()) {
      throw new IllegalStateException(description + " is closed");
    }
    conn.applyRemotePeerConfig(peerCfgDescriptor);
  }

  public byte[] remotePrivateData() {
    return remotePrivateData.clone();
  }

  public void closeHandler(Handler<Throwable> handler) {
    closing.closeHandler(handler);
  }

  public CompletionStats stats() {
    return counters.snapshot();
  }

  /** Whether it takes operations; any thread (it may change right after). */
  public boolean isOpen() {
    return state.openHint();
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
    return closing.whenClosed();
  }

  // ---------------------------------------------------------------- closing (ConnectionClosing)

  /** The user's close: completes when librpma has released the connection. */
  public Future<Void> close() {
    return close(null);
  }

  /** The same, {@code by} naming who closes it (an owner: "by vertx.close()"); null: its user. */
  public Future<Void> close(String by) {
    return closing.close(by);
  }

  /** Ends it at once (not its user's close: no wait for the peer): the peer is known gone. */
  public void peerGone(String why) {
    closing.peerGone(why);
  }

  private void failed(Throwable t) {
    closing.failed(t);
  }

  private void shutdown(RpmaConnectionClosedException reason) {
    closing.shutdown(reason);
  }
}
