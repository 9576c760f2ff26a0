package dev.rpma.vertx.impl;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.engine.ConnectionEngine;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.impl.seam.OpKind;
import dev.rpma.vertx.impl.engine.OperationMetrics;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.loop.LoopContexts;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.net.SocketAddress;
import java.util.List;

/**
 * The connection users hold: checks arguments on the calling thread, holds the regions an
 * operation uses, hops to the owning loop, and hands the rest to its {@link ConnectionEngine}.
 * Owned by its peer and by the context that made it (a verticle's undeploy closes it).
 */
final class ConnectionImpl implements RpmaConnection, Closeable {

  private final PeerImpl peer;
  private final ContextInternal context;
  /** Where its Futures and handlers complete: the caller's (a worker's, say), else the loop's. */
  private final ContextInternal userContext;
  private final ConnectionOptions options;
  private final ConnectionEngine engine;
  /** The shared receive queue its messages land in (held for it); null if none. */
  private final SharedReceiveQueueImpl queue;
  private final ConnectionEnds ends;
  private final ConnectionHandlers handlers;

  private ConnectionImpl(PeerImpl peer, ContextInternal context, ContextInternal userContext,
      ConnectionOptions options, String description, SharedReceiveQueueImpl queue,
      ConnectionEnds ends, OperationMetrics metrics) {
    this.ends = ends;
    this.handlers = new ConnectionHandlers(context, userContext);
    this.peer = peer;
    this.queue = queue;
    this.context = context;
    this.userContext = userContext;
    this.options = options;
    this.engine = new ConnectionEngine(context, options, description, peer.loopIo(context),
        peer.setupCalls(), metrics);
    engine.closeHandler(handlers::ended);
  }

  /**
   * Takes over a client's librpma connection (after rpma_conn_req_connect): completes at
   * ESTABLISHED. Call on the context.
   */
  static Future<RpmaConnection> start(PeerImpl peer, ContextInternal context,
      ContextInternal userContext, LibrpmaConnection conn, ConnectionOptions options,
      String description,
      SharedReceiveQueueImpl queue, ConnectionEnds ends, OperationMetrics metrics) {
    ConnectionImpl c = new ConnectionImpl(peer, context, userContext, options, description,
        queue, ends, metrics);
    return c.begin(conn);
  }

  /**
   * The server's accept: posts the receives given on the request (their wr_ids from this
   * connection's table), then accepts (rpma_conn_req_connect, which consumes the request) and
   * starts as {@link #start} does. Call on the context.
   */
  static Future<RpmaConnection> accept(PeerImpl peer, ContextInternal context,
      ContextInternal userContext, LibrpmaRequest req, byte[] privateData,
      List<QueuedOp> receives, ConnectionOptions options, String description,
      SharedReceiveQueueImpl queue, ConnectionEnds ends, OperationMetrics metrics) {
    ConnectionImpl c = new ConnectionImpl(peer, context, userContext, options, description,
        queue, ends, metrics);
    for (QueuedOp r : receives) {
      c.engine.prepostReceive(r, wrId ->
          req.postReceive(r.local().handle(), r.localOffset(), r.length(), wrId));
    }
    LibrpmaConnection conn;
    try {
      conn = req.connect(privateData, options.getDrainBatch());
    } catch (RpmaException error) {
      if (queue != null) {
        queue.release();
      }
      c.engine.abandon(new RpmaConnectionClosedException(description + ": accept failed", error));
      return context.failedFuture(error);
    }
    return c.begin(conn);
  }

  private Future<RpmaConnection> begin(LibrpmaConnection conn) {
    ends.started(conn::qpNum);
    // a peer that closed while the queue pair was made does not own it (its close waits for
    // this, see BeingMade): deleted here, before the peer is
    RuntimeException refused = peer.owned().add(this) ? null
        : new IllegalStateException("the peer is closed");
    if (refused == null && queue != null) {
      refused = queue.attach(this, engine, conn);
      if (refused != null) {
        peer.owned().remove(this);
      }
    }
    if (refused != null) { // never started: deleted here, then the queue's hold let go
      RuntimeException why = refused;
      engine.abandon(new RpmaConnectionClosedException(engine.description() + ": never started: "
          + why.getMessage())); // receives posted on an accepted request fail
      return peer.blocking(context, () -> {
        conn.delete();
        return null;
      }).transform(ar -> {
        if (queue != null) {
          queue.release();
        }
        return LoopContexts.onCaller(userContext, context, context.failedFuture(why));
      });
    }
    context.closeFuture().add(this);
    engine.whenClosed().onComplete(ar -> {
      peer.owned().remove(this);
      context.closeFuture().remove(this);
      handlers.released();
    });
    Future<RpmaConnection> started = engine.start(conn).map(this);
    return LoopContexts.onCaller(userContext, context, started);
  }

  // ---------------------------------------------------------------- operations

  private <T> Future<T> invalid(String op, String problem) {
    return userContext.failedFuture(new IllegalArgumentException(op + ": " + problem));
  }

  @Override
  public Future<Void> read(MemoryRegion dst, long dstOffset, RemoteMemoryRegion src,
      long srcOffset, long length) {
    String bad = OperationChecks.transfer(peer, dst, MemoryUsage.READ_DST, dstOffset, src,
        srcOffset, length);
    return bad != null ? invalid("read", bad)
        : submit(OpKind.READ, dst, dstOffset, src, srcOffset, length, 0);
  }

  @Override
  public Future<Void> write(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src,
      long srcOffset, long length) {
    String bad = OperationChecks.transfer(peer, src, MemoryUsage.WRITE_SRC, srcOffset, dst,
        dstOffset, length);
    return bad != null ? invalid("write", bad)
        : submit(OpKind.WRITE, src, srcOffset, dst, dstOffset, length, 0);
  }

  @Override
  public Future<Void> writeWithImm(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src,
      long srcOffset, long length, int immediate) {
    String bad = OperationChecks.transfer(peer, src, MemoryUsage.WRITE_SRC, srcOffset, dst,
        dstOffset, length);
    return bad != null ? invalid("writeWithImm", bad)
        : submit(OpKind.WRITE_WITH_IMM, src, srcOffset, dst, dstOffset, length, immediate);
  }

  @Override
  public Future<Void> atomicWrite(RemoteMemoryRegion dst, long dstOffset, long value) {
    String bad = OperationChecks.firstOf(OperationChecks.remote(dst, dstOffset, 8),
        OperationChecks.atomicOffset(dstOffset));
    return bad != null ? invalid("atomicWrite", bad)
        : submit(OpKind.ATOMIC_WRITE, null, 0, dst, dstOffset, 8, value);
  }

  @Override
  public Future<Void> flush(RemoteMemoryRegion dst, long dstOffset, long length, FlushType type) {
    String bad = OperationChecks.firstOf(OperationChecks.length(length),
        OperationChecks.remote(dst, dstOffset, length));
    bad = bad != null ? bad : OperationChecks.flushType(dst, type);
    return bad != null ? invalid("flush", bad)
        : submit(OpKind.FLUSH, null, 0, dst, dstOffset, length,
            peer.librpmaToFree().flushType(type));
  }

  @Override
  public Future<Void> send(MemoryRegion src, long offset, long length) {
    String bad = OperationChecks.firstOf(OperationChecks.length(length),
        OperationChecks.local(src, peer, MemoryUsage.SEND, offset, length));
    return bad != null ? invalid("send", bad)
        : submit(OpKind.SEND, src, offset, null, 0, length, 0);
  }

  @Override
  public Future<Void> sendWithImm(MemoryRegion src, long offset, long length, int immediate) {
    String bad = OperationChecks.firstOf(OperationChecks.length(length),
        OperationChecks.local(src, peer, MemoryUsage.SEND, offset, length));
    return bad != null ? invalid("sendWithImm", bad)
        : submit(OpKind.SEND_WITH_IMM, src, offset, null, 0, length, immediate);
  }

  @Override
  public Future<Received> recv(MemoryRegion dst, long offset, long length) {
    if (queue != null) {
      return userContext.failedFuture(new IllegalStateException("recv: " + engine.description()
          + " takes its messages from a shared receive queue: post receives with the queue's"
          + " recv (RpmaSharedReceiveQueue.recv), which says which connection each came from"));
    }
    String bad = OperationChecks.local(dst, peer, MemoryUsage.RECV, offset, length);
    return bad != null ? invalid("recv", bad)
        : submit(OpKind.RECV, dst, offset, null, 0, length, 0);
  }

  /** Holds the regions from now on, then hands the operation to the engine, on its loop. */
  private <T> Future<T> submit(byte kind, MemoryRegion localRegion, long localOffset,
      RemoteMemoryRegion remoteRegion, long remoteOffset, long length, long extra) {
    MemoryRegionImpl local = (MemoryRegionImpl) localRegion;
    RemoteRegionImpl remote = (RemoteRegionImpl) remoteRegion;
    if (local != null && !local.acquire()) {
      return userContext.failedFuture(
          new IllegalStateException(OpKind.name(kind) + ": the local region is closed"));
    }
    if (remote != null && !remote.acquire()) {
      if (local != null) {
        local.release();
      }
      return userContext.failedFuture(
          new IllegalStateException(OpKind.name(kind) + ": the remote region is closed"));
    }
    PromiseInternal<T> promise = userContext.promise();
    if (context.inThread()) {
      engine.submit(kind, local, localOffset, remote, remoteOffset, length, extra, promise);
    } else {
      context.execute(() -> engine.submit(kind, local, localOffset, remote, remoteOffset, length,
          extra, promise));
    }
    return promise.future();
  }

  // ---------------------------------------------------------------- the rest of the API

  @Override
  public byte[] remotePrivateData() {
    return engine.remotePrivateData();
  }

  @Override
  public void applyRemotePeerConfig(PeerConfig remote) {
    // checked here, on the caller's thread: thrown inside the hop, nobody would see it
    if (!(remote instanceof PeerConfigImpl cfg)) {
      throw new IllegalArgumentException(remote == null ? "the peer configuration is null"
          : "not a PeerConfig of vertx-rpma: make it with PeerConfig.fromDescriptor(bytes)");
    }
    if (!engine.isOpen()) {
      throw new IllegalStateException(engine.description() + " is closed");
    }
    byte[] descriptor = cfg.descriptor();
    if (context.inThread()) {
      engine.applyRemotePeerConfig(descriptor);
    } else {
      context.execute(() -> {
        // closed during the hop: nothing left to configure, and a throw here would reach
        // only Netty's task runner's log
        if (engine.isOpen()) {
          engine.applyRemotePeerConfig(descriptor);
        }
      });
    }
  }

  /** The caller's, as the Futures and handlers run there (not the loop context behind it). */
  @Override
  public Context context() {
    return userContext;
  }

  @Override
  public SocketAddress localAddress() {
    return ends.local();
  }

  @Override
  public SocketAddress remoteAddress() {
    return ends.remote();
  }

  @Override
  public RpmaConnection exceptionHandler(Handler<Throwable> handler) {
    handlers.exceptionHandler(handler);
    return this;
  }

  @Override
  public RpmaConnection endHandler(Handler<Void> handler) {
    handlers.endHandler(handler);
    return this;
  }

  @Override
  @Deprecated
  public RpmaConnection closeHandler(Handler<Throwable> handler) {
    handlers.closeHandler(handler);
    return this;
  }

  @Override
  public CompletionStats stats() {
    return engine.stats();
  }

  /** A layer's (the channel's) own slot for why the connection ended; never the user's. */
  void layerEndHandler(Handler<Throwable> handler) {
    handlers.layerEndHandler(handler);
  }

  /** Completes when librpma has released the connection, however it ended. */
  Future<Void> whenClosed() {
    return engine.whenClosed();
  }

  /** Ends it on its loop with {@code why}, as a fault (RpmaDirectory: the server's node left). */
  void peerGone(String why) {
    context.runOnContext(v -> engine.peerGone(why));
  }

  @Override
  public Future<Void> close() {
    return closeBy(null);
  }

  /** {@code by}: who closes it, for the reason its operations fail with (null: its user). */
  private Future<Void> closeBy(String by) {
    Future<Void> closed = context.inThread() ? engine.close(by)
        : context.succeededFuture().compose(v -> engine.close(by));
    return LoopContexts.onCaller(userContext, context, closed);
  }

  /** Its peer, or the context that made it (a verticle undeployed), is closing. */
  @Override
  public void close(Completable<Void> completion) {
    closeBy(CloseCauses.ownersClose(peer, context)).onComplete(completion);
  }
}
