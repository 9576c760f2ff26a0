package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.NativeConstants;

import dev.rpma.vertx.impl.engine.CompletionQueue;
import dev.rpma.vertx.impl.engine.CompletionSink;
import dev.rpma.vertx.impl.engine.ConnectionCounters;
import dev.rpma.vertx.impl.engine.DrainContinuation;
import dev.rpma.vertx.impl.engine.FdWatcher;
import dev.rpma.vertx.impl.engine.FlowControl;
import dev.rpma.vertx.impl.engine.OpKind;
import dev.rpma.vertx.impl.engine.PendingOps;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeError;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaException;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A librpma connection on its event loop.
 *
 * <p>Everything here runs on the owning context's loop thread: posting (callers on other threads
 * hop there first), the CM events, the completions. Life cycle: CONNECTING until the
 * ESTABLISHED event, OPEN, then CLOSING (disconnect sent; waiting for the CLOSED event, at most
 * the configured timeout) and CLOSED (every operation failed or completed, fds out of the epoll
 * set, then librpma's connection deleted on a worker).
 */
final class ConnectionImpl implements RpmaConnection, CompletionSink, AsyncCloseable, Closeable {

  private static final Logger LOG = Logger.getLogger(ConnectionImpl.class.getName());

  private static final int EVENT_ESTABLISHED = 0;
  private static final int EVENT_CLOSED = 1;
  private static final int EVENT_LOST = 2;

  private enum State { CONNECTING, OPEN, CLOSING, CLOSED }

  private final PeerImpl peer;
  private final ContextInternal context;
  private long conn;
  private final ConnectionOptions options;
  private final String description;
  private final FlowControl flow;
  private final PendingOps pending;
  private final ArrayDeque<QueuedOp> sendsWaiting = new ArrayDeque<>();
  private final ArrayDeque<QueuedOp> recvsWaiting = new ArrayDeque<>();
  private final ConnectionCounters counters = new ConnectionCounters();
  private final List<FdWatcher> watchers = new ArrayList<>();
  private final PromiseInternal<RpmaConnection> established;
  private final Promise<Void> closed;
  private CompletionQueue mainCq;
  private CompletionQueue recvCq;
  private DrainContinuation continuation;
  private State state = State.CONNECTING;
  private byte[] remotePrivateData = new byte[0];
  private Handler<Throwable> closeHandler;
  private RpmaConnectionClosedException closeReason;
  private boolean closedByUser;
  private long closeTimer = -1;
  private long watchdogTimer = -1;
  private long connectTimer = -1;
  private long completionsAtLastCheck;
  private int stalledChecks;

  private ConnectionImpl(PeerImpl peer, ContextInternal context, long conn,
      ConnectionOptions options, String description) {
    this.peer = peer;
    this.context = context;
    this.conn = conn;
    this.options = options;
    this.description = description;
    this.flow = new FlowControl(options);
    this.pending = new PendingOps(flow.capacity());
    this.established = context.promise();
    this.closed = context.promise();
  }

  /**
   * Takes over a librpma connection (client: after rpma_conn_req_connect; server: after the
   * accept): its fds go on the context's loop; the Future completes at ESTABLISHED. Call on the
   * context.
   */
  static Future<RpmaConnection> start(PeerImpl peer, ContextInternal context, long conn,
      ConnectionOptions options, String description) {
    return new ConnectionImpl(peer, context, conn, options, description).begin();
  }

  /**
   * The server's accept: posts the receives given on the request (rpma_conn_req_recv, their
   * wr_ids from this connection's table, so they complete like any other), then accepts
   * (rpma_conn_req_connect, which consumes the request) and starts as {@link #start} does.
   * Call on the context.
   */
  static Future<RpmaConnection> accept(PeerImpl peer, ContextInternal context, long req,
      byte[] privateData, List<QueuedOp> receives, ConnectionOptions options,
      String description) {
    ConnectionImpl c = new ConnectionImpl(peer, context, 0, options, description);
    for (QueuedOp r : receives) {
      c.prepost(req, r);
    }
    long conn = Native.connReqConnect(req, privateData);
    if (NativeError.isError(conn)) {
      RpmaException error = Errors.rpma("rpma_conn_req_connect", conn);
      c.failPending(new RpmaConnectionClosedException(description + ": accept failed", error));
      return context.failedFuture(error);
    }
    c.conn = conn;
    return c.begin();
  }

  /** A receive on the request; fails its Future alone if there is no room or librpma says no. */
  private void prepost(long req, QueuedOp r) {
    if (!flow.hasRoom(OpKind.RECV)) {
      r.local().release();
      r.promise().tryFail(new IllegalStateException("recv: more receives were posted on the "
          + "request than the receive queue (rqSize) holds"));
      return;
    }
    flow.acquire(OpKind.RECV);
    long wrId = pending.add(OpKind.RECV, r.promise(), r.local());
    int rc = Native.connReqRecv(req, r.local().handle(), r.localOffset(), r.length(), wrId);
    if (rc < 0) {
      retire(pending.slotOf(wrId)).tryFail(Errors.rpma("rpma_conn_req_recv", rc));
    }
  }

  // addCloseHook is deprecated in Vert.x 5.2 but remains the hook that verticle undeploy runs
  @SuppressWarnings("deprecation")
  private Future<RpmaConnection> begin() {
    peer.adopt(this);
    context.addCloseHook(this);
    connectTimer = context.setTimer(options.getConnectTimeoutMs(), id -> {
      connectTimer = -1;
      if (state == State.CONNECTING) {
        shutdown(new RpmaConnectionClosedException(description + ": not established within "
            + options.getConnectTimeoutMs() + " ms"));
      }
    });
    try {
      watchCompletions()
          .compose(v -> watch(Native.connEventFd(conn), "rpma_conn_get_event_fd", this::onEvents))
          .onFailure(e -> shutdown(new RpmaConnectionClosedException(
              description + ": cannot watch its fds on the event loop", e)));
    } catch (RpmaException e) {
      shutdown(new RpmaConnectionClosedException(description + ": set-up failed", e));
    }
    return established.future();
  }

  private Future<Void> watchCompletions() {
    long cq = Errors.check("rpma_conn_get_cq", Native.connCq(conn));
    long rcq = Errors.check("rpma_conn_get_rcq", Native.connRcq(conn));
    int batch = options.getDrainBatch();
    int budget = options.getDrainBudget();
    continuation = new DrainContinuation(this::drainAgain);
    Runnable later = continuation::request;
    mainCq = new CompletionQueue(cq, this, counters, batch, budget, later);
    recvCq = rcq != 0 ? new CompletionQueue(rcq, this, counters, batch, budget, later) : null;
    Future<Void> continued = watch(continuation.fd(), "eventfd", continuation::onReadable);
    if (options.isSharedCompletionChannel()) {
      return continued.compose(v -> watch(Native.connComplFd(conn), "rpma_conn_get_compl_fd",
          this::onSharedChannelReadable));
    }
    Future<Void> main = continued.compose(v ->
        watch(Native.cqFd(cq), "rpma_cq_get_fd", mainCq::onReadable));
    if (recvCq == null) {
      return main;
    }
    CompletionQueue receives = recvCq;
    return main.compose(v -> watch(Native.cqFd(rcq), "rpma_cq_get_fd", receives::onReadable));
  }

  private Future<Void> watch(int fdOrError, String call, Runnable onReadable) {
    if (fdOrError < 0) {
      return context.failedFuture(Errors.rpma(call, fdOrError));
    }
    FdWatcher watcher = FdWatcher.create(context, fdOrError, onReadable);
    watchers.add(watcher);
    return watcher.start();
  }

  // ---------------------------------------------------------------- events

  private void onEvents() {
    while (state != State.CLOSED) {
      int event = Native.connNextEvent(conn);
      if (event < 0) {
        if (!NativeError.isAgain(event)) {
          shutdown(new RpmaConnectionClosedException(description + ": reading its events failed",
              Errors.rpma("rpma_conn_next_event", event)));
        }
        return;
      }
      onEvent(event);
    }
  }

  private void onEvent(int event) {
    if (event == EVENT_ESTABLISHED) {
      if (state == State.CONNECTING) {
        state = State.OPEN;
        byte[] pdata = Native.connPrivateData(conn);
        remotePrivateData = pdata == null ? new byte[0] : pdata;
        cancelTimer(connectTimer);
        connectTimer = -1;
        startWatchdog();
        established.complete(this);
      }
      return;
    }
    if (state == State.CLOSING && (event == EVENT_CLOSED || event == EVENT_LOST)) {
      finish(); // the answer to our disconnect
      return;
    }
    String what = switch (event) {
      case EVENT_CLOSED -> " was closed by the peer";
      case EVENT_LOST -> " was lost";
      default -> ": " + Native.connEventString(event);
    };
    shutdown(new RpmaConnectionClosedException(description + what));
  }

  /** A drain that used up its budget goes on (from the loop's I/O phase). */
  private void drainAgain() {
    mainCq.drainNow();
    if (recvCq != null) {
      recvCq.drainNow();
    }
  }

  private void onSharedChannelReadable() {
    counters.wakeups++;
    int which = Native.connWaitAll(conn);
    if (which < 0) {
      onCompletionQueueFailure(Errors.rpma("rpma_conn_wait", which));
      return;
    }
    mainCq.drainNow();
    if (recvCq != null) {
      recvCq.drainNow();
    }
  }

  // ---------------------------------------------------------------- completions

  @Override
  public void onCompletion(long wrId, int status, int vendorError, int byteLength,
      boolean hasImm, int imm) {
    int slot = pending.slotOf(wrId);
    if (slot < 0) {
      LOG.warning(() -> description + ": completion for no pending operation, wr_id " + wrId);
      return;
    }
    byte kind = pending.kind(slot);
    @SuppressWarnings("unchecked")
    PromiseInternal<Object> promise = (PromiseInternal<Object>) retire(slot);
    // operations that waited were called before anything this completion's listeners post
    postWaiting();
    if (status == 0) {
      promise.tryComplete(OpKind.isReceive(kind) ? new Received(byteLength, hasImm, imm) : null);
    } else {
      promise.tryFail(completionError(kind, status, vendorError));
    }
  }

  private Throwable completionError(byte kind, int status, int vendorError) {
    RpmaCompletionException e = new RpmaCompletionException(OpKind.name(kind), status,
        Native.wcStatusString(status), vendorError);
    if (state == State.OPEN) {
      return e;
    }
    String why = closeReason != null ? " (" + closeReason.getMessage() + ")" : "";
    return new RpmaConnectionClosedException(
        OpKind.name(kind) + " was in flight when the connection closed" + why, e);
  }

  @Override
  public void onCompletionQueueFailure(RpmaException error) {
    shutdown(new RpmaConnectionClosedException(description + ": its completion queue failed",
        error));
  }

  // ---------------------------------------------------------------- posting

  private <T> Future<T> fail(Throwable cause) {
    return context.failedFuture(cause);
  }

  private String checkLocal(MemoryRegion region, MemoryUsage usage, long offset, long length) {
    return MemoryRegionImpl.checkUse(region, peer, usage, offset, length);
  }

  private static String checkRemote(RemoteMemoryRegion region, long offset, long length) {
    if (!(region instanceof RemoteRegionImpl r)) {
      return region == null ? "the remote region is null" : "not a region of vertx-rpma";
    }
    return r.check(offset, length);
  }

  private static String checkLength(long length) {
    return length < 1 ? "length must be at least 1, got " + length : null;
  }

  private static String firstOf(String... problems) {
    for (String p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  @Override
  public Future<Void> read(MemoryRegion dst, long dstOffset, RemoteMemoryRegion src,
      long srcOffset, long length) {
    String bad = firstOf(checkLength(length), checkLocal(dst, MemoryUsage.READ_DST, dstOffset,
        length), checkRemote(src, srcOffset, length));
    return bad != null ? fail(new IllegalArgumentException("read: " + bad))
        : submit(OpKind.READ, dst, dstOffset, src, srcOffset, length, 0);
  }

  @Override
  public Future<Void> write(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src,
      long srcOffset, long length) {
    String bad = firstOf(checkLength(length), checkLocal(src, MemoryUsage.WRITE_SRC, srcOffset,
        length), checkRemote(dst, dstOffset, length));
    return bad != null ? fail(new IllegalArgumentException("write: " + bad))
        : submit(OpKind.WRITE, src, srcOffset, dst, dstOffset, length, 0);
  }

  @Override
  public Future<Void> writeWithImm(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src,
      long srcOffset, long length, int immediate) {
    String bad = firstOf(checkLength(length), checkLocal(src, MemoryUsage.WRITE_SRC, srcOffset,
        length), checkRemote(dst, dstOffset, length));
    return bad != null ? fail(new IllegalArgumentException("writeWithImm: " + bad))
        : submit(OpKind.WRITE_WITH_IMM, src, srcOffset, dst, dstOffset, length, immediate);
  }

  @Override
  public Future<Void> atomicWrite(RemoteMemoryRegion dst, long dstOffset, long value) {
    String bad = firstOf(checkRemote(dst, dstOffset, 8),
        dstOffset % 8 != 0 ? "the offset must be 8-byte aligned, got " + dstOffset : null);
    return bad != null ? fail(new IllegalArgumentException("atomicWrite: " + bad))
        : submit(OpKind.ATOMIC_WRITE, null, 0, dst, dstOffset, 8, value);
  }

  @Override
  public Future<Void> flush(RemoteMemoryRegion dst, long dstOffset, long length, FlushType type) {
    String bad = firstOf(checkLength(length), checkRemote(dst, dstOffset, length),
        type == null ? "the flush type is null" : null);
    if (bad == null && type == FlushType.PERSISTENT && !dst.supportsPersistentFlush()) {
      bad = "the remote region was not registered for FLUSH_PERSISTENT";
    }
    if (bad == null && type == FlushType.VISIBILITY && !dst.supportsVisibilityFlush()) {
      bad = "the remote region was not registered for FLUSH_VISIBILITY";
    }
    return bad != null ? fail(new IllegalArgumentException("flush: " + bad))
        : submit(OpKind.FLUSH, null, 0, dst, dstOffset, length, NativeConstants.flushType(type));
  }

  @Override
  public Future<Void> send(MemoryRegion src, long offset, long length) {
    String bad = firstOf(checkLength(length), checkLocal(src, MemoryUsage.SEND, offset, length));
    return bad != null ? fail(new IllegalArgumentException("send: " + bad))
        : submit(OpKind.SEND, src, offset, null, 0, length, 0);
  }

  @Override
  public Future<Void> sendWithImm(MemoryRegion src, long offset, long length, int immediate) {
    String bad = firstOf(checkLength(length), checkLocal(src, MemoryUsage.SEND, offset, length));
    return bad != null ? fail(new IllegalArgumentException("sendWithImm: " + bad))
        : submit(OpKind.SEND_WITH_IMM, src, offset, null, 0, length, immediate);
  }

  @Override
  public Future<Received> recv(MemoryRegion dst, long offset, long length) {
    String bad = checkLocal(dst, MemoryUsage.RECV, offset, length);
    return bad != null ? fail(new IllegalArgumentException("recv: " + bad))
        : submit(OpKind.RECV, dst, offset, null, 0, length, 0);
  }

  /** Holds the regions from now on, then posts on the loop, in call order. */
  private <T> Future<T> submit(byte kind, MemoryRegion localRegion, long localOffset,
      RemoteMemoryRegion remoteRegion, long remoteOffset, long length, long extra) {
    MemoryRegionImpl local = (MemoryRegionImpl) localRegion;
    RemoteRegionImpl remote = (RemoteRegionImpl) remoteRegion;
    if (local != null && !local.acquire()) {
      return fail(new IllegalStateException(OpKind.name(kind) + ": the local region is closed"));
    }
    if (remote != null && !remote.acquire()) {
      if (local != null) {
        local.release();
      }
      return fail(new IllegalStateException(OpKind.name(kind) + ": the remote region is closed"));
    }
    PromiseInternal<T> promise = context.promise();
    QueuedOp op = null;
    if (context.inThread()) {
      postOrQueue(kind, local, localOffset, remote, remoteOffset, length, extra, promise);
    } else {
      op = new QueuedOp(kind, local, localOffset, remote, remoteOffset, length, extra, promise);
      QueuedOp hop = op;
      context.execute(() -> postOrQueue(hop.kind(), hop.local(), hop.localOffset(), hop.remote(),
          hop.remoteOffset(), hop.length(), hop.extra(), hop.promise()));
    }
    return promise.future();
  }

  private void postOrQueue(byte kind, MemoryRegionImpl local, long localOffset,
      RemoteRegionImpl remote, long remoteOffset, long length, long extra,
      PromiseInternal<?> promise) {
    if (state != State.OPEN) {
      releaseRegions(local, remote);
      promise.tryFail(closedError(kind));
      return;
    }
    ArrayDeque<QueuedOp> waiting = OpKind.isReceive(kind) ? recvsWaiting : sendsWaiting;
    if (waiting.isEmpty() && flow.hasRoom(kind)) {
      post(kind, local, localOffset, remote, remoteOffset, length, extra, promise);
    } else {
      counters.queued++;
      waiting.add(new QueuedOp(kind, local, localOffset, remote, remoteOffset, length, extra,
          promise));
    }
  }

  private void postWaiting() {
    postWaiting(sendsWaiting);
    postWaiting(recvsWaiting);
  }

  private void postWaiting(ArrayDeque<QueuedOp> waiting) {
    QueuedOp op;
    while (state == State.OPEN && (op = waiting.peek()) != null && flow.hasRoom(op.kind())) {
      waiting.poll();
      post(op.kind(), op.local(), op.localOffset(), op.remote(), op.remoteOffset(), op.length(),
          op.extra(), op.promise());
    }
  }

  private void post(byte kind, MemoryRegionImpl local, long localOffset, RemoteRegionImpl remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
    flow.acquire(kind);
    long wrId = pending.add(kind, promise, local);
    long l = local != null ? local.handle() : 0;
    long r = remote != null ? remote.handle() : 0;
    int rc = switch (kind) {
      case OpKind.READ -> Native.read(conn, l, localOffset, r, remoteOffset, length, wrId);
      case OpKind.WRITE -> Native.write(conn, r, remoteOffset, l, localOffset, length, wrId);
      case OpKind.WRITE_WITH_IMM -> Native.writeWithImm(conn, r, remoteOffset, l, localOffset,
          length, (int) extra, wrId);
      case OpKind.ATOMIC_WRITE -> Native.atomicWrite(conn, r, remoteOffset, extra, wrId);
      case OpKind.FLUSH -> Native.flush(conn, r, remoteOffset, length, (int) extra, wrId);
      case OpKind.SEND -> Native.send(conn, l, localOffset, length, wrId);
      case OpKind.SEND_WITH_IMM -> Native.sendWithImm(conn, l, localOffset, length, (int) extra,
          wrId);
      case OpKind.RECV -> Native.recv(conn, l, localOffset, length, wrId);
      default -> throw new IllegalStateException("unknown operation " + kind);
    };
    if (remote != null) {
      remote.release(); // the work request carries address and key now
    }
    if (rc < 0) {
      retire(pending.slotOf(wrId)).tryFail(postError(kind, rc));
    }
  }

  private static Throwable postError(byte kind, int rc) {
    RpmaException error = Errors.rpma(OpKind.call(kind), rc);
    if (kind == OpKind.FLUSH && NativeError.code(rc) == NativeError.RPMA_E_NOSUPP) {
      // the only flush librpma refuses after our checks: persistent, without the peer's word
      return new IllegalStateException("flush(PERSISTENT) needs the remote peer's configuration:"
          + " the peer must state that its memory takes writes directly to persistence"
          + " (PeerConfig.create(true), its descriptor sent e.g. in private data) and this side"
          + " must call applyRemotePeerConfig(PeerConfig.fromDescriptor(bytes)) first", error);
    }
    return error;
  }

  /**
   * Ends a posted operation's bookkeeping: its slot (its wr_id will never match again), its
   * room in the queues and its hold on the local region. Returns its promise, to complete.
   */
  private PromiseInternal<?> retire(int slot) {
    PromiseInternal<?> promise = pending.promise(slot);
    MemoryRegionImpl region = pending.region(slot);
    flow.release(pending.kind(slot));
    pending.remove(slot);
    if (region != null) {
      region.release();
    }
    return promise;
  }

  private static void releaseRegions(MemoryRegionImpl local, RemoteRegionImpl remote) {
    if (local != null) {
      local.release();
    }
    if (remote != null) {
      remote.release();
    }
  }

  private RpmaConnectionClosedException closedError(byte kind) {
    RpmaConnectionClosedException reason = closeReason;
    String message = OpKind.name(kind) + ": " + description + " is closed";
    return reason == null ? new RpmaConnectionClosedException(message)
        : new RpmaConnectionClosedException(message + " (" + reason.getMessage() + ")", reason);
  }

  // ---------------------------------------------------------------- the rest of the API

  @Override
  public byte[] remotePrivateData() {
    return remotePrivateData.clone();
  }

  @Override
  public void applyRemotePeerConfig(PeerConfig remote) {
    PeerConfigImpl cfg = (PeerConfigImpl) remote;
    if (context.inThread()) {
      applyOnLoop(cfg);
    } else {
      context.execute(() -> applyOnLoop(cfg));
    }
  }

  private void applyOnLoop(PeerConfigImpl cfg) {
    if (state != State.OPEN) {
      throw new IllegalStateException(description + " is closed");
    }
    cfg.applyTo(conn);
  }

  @Override
  public Context context() {
    return context;
  }

  @Override
  public RpmaConnection closeHandler(Handler<Throwable> handler) {
    this.closeHandler = handler;
    return this;
  }

  @Override
  public CompletionStats stats() {
    return counters.snapshot();
  }

  /** Completes when librpma has released the connection, however it ended. */
  Future<Void> whenClosed() {
    return closed.future();
  }

  // ---------------------------------------------------------------- watchdog

  /**
   * Checks twice per completion timeout whether operations are in flight while no completion
   * came since the last check; two such checks in a row mean the device or the path stopped
   * answering without an error, and the connection is torn down so the operations fail. Reads
   * a counter: nothing on the completion path.
   */
  private void startWatchdog() {
    int timeout = options.getCompletionTimeoutMs();
    if (timeout > 0) {
      watchdogTimer = context.setPeriodic(Math.max(1, timeout / 2), id -> checkProgress());
    }
  }

  private void checkProgress() {
    boolean stalled = flow.sendsInFlight() > 0 && counters.completions == completionsAtLastCheck;
    completionsAtLastCheck = counters.completions;
    stalledChecks = stalled ? stalledChecks + 1 : 0;
    if (stalledChecks >= 2) {
      shutdown(new RpmaConnectionClosedException(description + ": no completion for "
          + options.getCompletionTimeoutMs() + " ms with " + flow.sendsInFlight()
          + " operations in flight: the device or the network path stopped answering"));
    }
  }

  // ---------------------------------------------------------------- closing

  @Override
  public Future<Void> close() {
    if (context.inThread()) {
      closeOnLoop();
    } else {
      context.execute(this::closeOnLoop);
    }
    return closed.future();
  }

  /** The owning verticle is undeployed, or its context closed. */
  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }

  private void closeOnLoop() {
    if (state == State.CONNECTING || state == State.OPEN) {
      closedByUser = true;
      shutdown(new RpmaConnectionClosedException(description + " was closed"));
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
    closeReason = reason;
    established.tryFail(reason);
    failWaiting(sendsWaiting, reason);
    failWaiting(recvsWaiting, reason);
    int rc = Native.connDisconnect(conn);
    if (waitForPeer && rc == 0) {
      closeTimer = context.setTimer(options.getTimeoutMs(), id -> {
        closeTimer = -1;
        finish();
      });
    } else {
      finish();
    }
  }

  private void failWaiting(ArrayDeque<QueuedOp> waiting, RpmaConnectionClosedException reason) {
    QueuedOp op;
    while ((op = waiting.poll()) != null) {
      releaseRegions(op.local(), op.remote());
      op.promise().tryFail(closedError(op.kind()));
    }
  }

  /**
   * Delivers what the device has completed, fails the rest, takes the fds out of the epoll set
   * and only then lets librpma delete the connection (and close its fds).
   */
  private void finish() {
    if (state == State.CLOSED) {
      return;
    }
    cancelTimer(closeTimer);
    cancelTimer(watchdogTimer);
    cancelTimer(connectTimer);
    closeTimer = watchdogTimer = connectTimer = -1;
    drainOnce(mainCq);
    drainOnce(recvCq);
    state = State.CLOSED;
    failPending(closeReason);
    List<Future<Void>> unwatched = new ArrayList<>();
    for (FdWatcher w : watchers) {
      unwatched.add(w.unwatch());
    }
    if (!closedByUser && closeHandler != null) {
      Handler<Throwable> handler = closeHandler;
      context.runOnContext(v -> handler.handle(closeReason));
    }
    Future.join(unwatched)
        .transform(ar -> {
          if (continuation != null) {
            continuation.close(); // ours, and out of the epoll set now
          }
          return peer.blocking(context, () -> Errors.check("rpma_conn_delete",
              Native.connDelete(conn)));
        })
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.log(Level.WARNING, description + ": deleting the connection failed", ar.cause());
          }
          peer.forget(this);
          context.removeCloseHook(this);
          closed.tryComplete();
        });
  }

  private void cancelTimer(long id) {
    if (id != -1) {
      context.owner().cancelTimer(id);
    }
  }

  /** Fails every posted operation that did not complete; they will never complete now. */
  private void failPending(RpmaConnectionClosedException reason) {
    closeReason = closeReason != null ? closeReason : reason;
    for (int slot : pending.slotsInUse()) {
      byte kind = pending.kind(slot);
      retire(slot).tryFail(closedError(kind));
    }
  }

  private void drainOnce(CompletionQueue cq) {
    if (cq != null) {
      cq.drainNow();
      cq.stop();
    }
  }
}
