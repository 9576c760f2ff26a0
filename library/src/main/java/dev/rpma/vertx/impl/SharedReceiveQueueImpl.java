package dev.rpma.vertx.impl;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.RpmaQueueClosedException;
import dev.rpma.vertx.RpmaSharedReceiveQueue;
import dev.rpma.vertx.SharedReceiveQueueOptions;
import dev.rpma.vertx.SharedReceived;
import dev.rpma.vertx.impl.engine.ConnectionEngine;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.engine.SharedQueueEngine;
import dev.rpma.vertx.impl.engine.SharedQueueMember;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;
import dev.rpma.vertx.impl.loop.LoopContexts;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;

/**
 * The shared receive queue users hold: checks on the caller's thread, hops to the queue's loop,
 * hands receives to its {@link SharedQueueEngine}; and its lifetime. Held ({@link RefCounted})
 * by itself, by every server listening with it and by every connection attached to it, from
 * the connect or accept until librpma deleted the connection: librpma's queue is deleted only
 * after the last of them, since a queue pair must not outlive its shared receive queue.
 */
final class SharedReceiveQueueImpl implements RpmaSharedReceiveQueue, Closeable {

  private final PeerImpl peer;
  private final ContextInternal context;
  /** Where its Futures complete: the caller's (a worker's, say), else the loop's. */
  private final ContextInternal userContext;
  private final long handle;
  private final SharedReceiveQueueOptions options;
  private final SharedQueueEngine engine;
  private final RefCounted life;
  /** The servers and connections attached: closed first when the queue closes. */
  private final CloseFuture attached = new CloseFuture();
  private final PromiseInternal<Void> deleted;
  private boolean closing;

  private SharedReceiveQueueImpl(PeerImpl peer, ContextInternal context,
      ContextInternal userContext, long handle, SharedReceiveQueueOptions options) {
    this.peer = peer;
    this.context = context;
    this.userContext = userContext;
    this.handle = handle;
    this.options = options;
    this.engine = new SharedQueueEngine(context, "shared receive queue " + Long.toHexString(handle),
        peer.loopIo(context), peer.setupCalls(), options.getRqSize(),
        options.getRcqSize(), options.getDrainBatch(), options.getDrainBudget(),
        VertxOperationMetrics.ofSharedQueue(context, peer.address(), Long.toHexString(handle),
            Math.min(options.getRqSize(), options.getRcqSize())));
    // failed (its CQ, or an exception on its loop path): closed with what is attached
    engine.onFailed(this::close);
    this.life = new RefCounted(() -> context.runOnContext(v -> delete()));
    this.deleted = context.promise();
  }

  /** rpma_srq_new on a worker, then its receive CQ on the caller's event loop. */
  static Future<RpmaSharedReceiveQueue> create(PeerImpl peer, ContextInternal caller,
      SharedReceiveQueueOptions options) {
    ContextInternal ctx;
    try {
      ctx = peer.eventLoopContext(caller);
    } catch (RuntimeException e) {
      return caller.failedFuture(e);
    }
    if (options == null) {
      return caller.failedFuture(new IllegalArgumentException("options must not be null"));
    }
    SharedReceiveQueueOptions opts = new SharedReceiveQueueOptions(options);
    // The peer's close waits for a queue being made (librpma makes it on a worker): else the
    // peer could be deleted before the queue is, or under rpma_srq_new (EBUSY, a leaked queue)
    BeingMade making = BeingMade.on(peer.queues());
    if (making == null) {
      return caller.failedFuture(new IllegalStateException("the peer is closed"));
    }
    Future<RpmaSharedReceiveQueue> made = making.until(
        peer.blocking(ctx, () -> newQueue(peer, opts)).compose(h -> start(peer, ctx, caller, h,
            opts)));
    return LoopContexts.onCaller(caller, ctx, made);
  }

  private static ProviderPeer.MadeQueue newQueue(PeerImpl peer, SharedReceiveQueueOptions o) {
    return peer.librpma().newSharedQueue(o.getRqSize(), o.getRcqSize(), o.getDrainBatch());
  }

  private static Future<RpmaSharedReceiveQueue> start(PeerImpl peer, ContextInternal ctx,
      ContextInternal caller, ProviderPeer.MadeQueue made, SharedReceiveQueueOptions opts) {
    LibrpmaSharedQueue srq = made.queue();
    SharedReceiveQueueImpl q = new SharedReceiveQueueImpl(peer, ctx, caller, made.handle(),
        opts);
    if (!peer.queues().add(q)) {
      // the peer is closing (it waits for this): the engine never took the queue, so the
      // queue's close would not delete it (its receive CQ's fd would stay open): delete it here
      return peer.blocking(ctx, () -> {
        srq.delete();
        return null;
      })
          .transform(ar -> q.close()).transform(ar -> ctx.failedFuture(
              new IllegalStateException("the peer is closed")));
    }
    ctx.closeFuture().add(q);
    return q.engine.start(srq)
        .<RpmaSharedReceiveQueue>map(q)
        .recover(e -> q.close().transform(ar -> ctx.failedFuture(e)));
  }

  // ---------------------------------------------------------------- attaching

  /**
   * The queue given to a connect or listen, checked and held for it (release it when what it
   * made is gone); null for none. Throws naming what is wrong and the fix.
   */
  static SharedReceiveQueueImpl hold(Object queue, PeerImpl peer, ContextInternal ctx,
      ConnectionOptions options) {
    if (queue == null) {
      return null;
    }
    if (!(queue instanceof SharedReceiveQueueImpl q)) {
      throw new IllegalArgumentException("not a shared receive queue of vertx-rpma: make it"
          + " with RpmaPeer.createSharedReceiveQueue");
    }
    if (q.peer != peer) {
      throw new IllegalArgumentException("the shared receive queue was made by another peer"
          + " (protection domain): make it with this peer's createSharedReceiveQueue");
    }
    if (options.isSharedCompletionChannel()) {
      throw new IllegalArgumentException("sharedCompletionChannel cannot be used with a shared"
          + " receive queue: the queue's receive CQ has a completion channel of its own"
          + " (librpma refuses the pair); turn it off");
    }
    if (ctx.nettyEventLoop() != q.context.nettyEventLoop()) {
      throw new IllegalStateException("the shared receive queue lives on event loop "
          + q.context.nettyEventLoop() + ", this connection would live on "
          + ctx.nettyEventLoop() + ": a queue serves the connections of its own event loop only;"
          + " connect or listen from the queue's context (queue.context().runOnContext(...)),"
          + " or make the queue in the verticle that connects or listens");
    }
    if (!q.life.tryAcquire()) {
      throw new IllegalStateException("the shared receive queue is closed");
    }
    return q;
  }

  /** Another hold (an accepted connection, from its server's); false once closed. */
  boolean holdAgain() {
    return life.tryAcquire();
  }

  void release() {
    life.release();
  }

  /** Releases the hold of {@code queue} (if any) when what it was held for failed. */
  static Handler<Throwable> releaseOnFailure(SharedReceiveQueueImpl queue) {
    return e -> {
      if (queue != null) {
        queue.release();
      }
    };
  }

  long handle() {
    return handle;
  }

  /** Whether it is closing: what is attached from now on would not be closed with it. */
  boolean isClosing() {
    return closing;
  }

  /**
   * A connection held for this queue now exists (librpma's {@code conn}, not started): its
   * messages are matched to it by its queue pair number from now on, until it is deleted (then
   * its hold is released). On the loop, before the loop can drain its first message. Returns
   * why it cannot attach (then the caller deletes it and releases the hold), or null.
   */
  RuntimeException attach(ConnectionImpl connection, ConnectionEngine connectionEngine,
      LibrpmaConnection conn) {
    if (closing) {
      return new RpmaQueueClosedException(connectionEngine.description()
          + ": the shared receive queue was closed while the connection was being made");
    }
    int qp;
    try {
      qp = conn.qpNum();
    } catch (RpmaException e) {
      return e;
    }
    SharedQueueMember member = new Member(connection, connectionEngine);
    engine.attach(qp, member);
    // its messages wait until it takes operations (a reply to one must not fail), and until
    // the listeners of its accept or connect (on this loop) have run: a task after ESTABLISHED
    connectionEngine.whenEstablished().onComplete(ar ->
        context.runOnContext(v -> engine.usable(member)));
    attached.add(connection);
    connectionEngine.whenClosed().onComplete(ar -> {
      engine.detach(qp, member);
      attached.remove(connection);
      life.release();
    });
    return null;
  }

  /** A server listening with it: closed when the queue closes. */
  void attach(ServerImpl server) {
    attached.add(server);
  }

  /** The server closed: its hold is released. */
  void detach(ServerImpl server) {
    attached.remove(server);
    life.release();
  }

  private record Member(ConnectionImpl connection, ConnectionEngine engine)
      implements SharedQueueMember {

    @Override
    public Object received(int byteLength, boolean hasImm, int imm) {
      return new SharedReceived(connection, byteLength, hasImm, imm);
    }

    @Override
    public void onReceiveError(int status, Throwable error) {
      engine.onSharedReceiveError(status, error);
    }

    @Override
    public String description() {
      return engine.description();
    }
  }

  // ---------------------------------------------------------------- the API

  @Override
  public Future<SharedReceived> recv(MemoryRegion dst, long offset, long length) {
    String bad = MemoryRegionImpl.checkUse(dst, peer, MemoryUsage.RECV, offset, length);
    if (bad != null) {
      return userContext.failedFuture(new IllegalArgumentException("recv: " + bad));
    }
    MemoryRegionImpl region = (MemoryRegionImpl) dst;
    if (!region.acquire()) {
      return userContext.failedFuture(
          new IllegalStateException("recv: the local region is closed"));
    }
    PromiseInternal<SharedReceived> promise = userContext.promise();
    if (context.inThread()) {
      engine.submit(region, offset, length, promise);
    } else {
      context.execute(() -> engine.submit(region, offset, length, promise));
    }
    return promise.future();
  }

  @Override
  public Context context() {
    return context;
  }

  @Override
  public SharedReceiveQueueOptions options() {
    return new SharedReceiveQueueOptions(options);
  }

  @Override
  public CompletionStats stats() {
    return engine.stats();
  }

  /** Receives posted on the device and not completed; on the queue's loop (tests). */
  int postedReceives() {
    return engine.postedReceives();
  }

  @Override
  public Future<Void> close() {
    if (!context.inThread()) {
      return LoopContexts.onCaller(userContext, context,
          context.succeededFuture().compose(v -> close()));
    }
    if (!closing) {
      closing = true;
      engine.stopTaking();
      // the servers first (no new queue pair), then the connections; the last hold's release
      // deletes the queue
      attached.close().onComplete(ar -> life.close());
    }
    return deleted.future();
  }

  /** The last hold is gone: librpma's queue goes, then ownership lets go of it. On the loop. */
  private void delete() {
    engine.close().onComplete(ar -> {
      peer.queues().remove(this);
      context.closeFuture().remove(this);
      deleted.tryComplete();
    });
  }

  /** Its peer, or the context that made it, is closing. */
  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }
}
