package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** An incoming request, answered exactly once, on the server's loop. */
final class ConnectionRequestImpl implements RpmaConnectionRequest, Closeable {

  private final ServerImpl server;
  private final long req;
  private final byte[] privateData;
  private final AtomicBoolean answered = new AtomicBoolean();
  private final List<QueuedOp> receives = new ArrayList<>();
  /** Answered, and what the answer made owned or deleted (its request's queue pair gone). */
  private final Promise<Void> settled = Promise.promise();

  ConnectionRequestImpl(ServerImpl server, long req, byte[] privateData) {
    this.server = server;
    this.req = req;
    this.privateData = privateData;
  }

  ServerImpl server() {
    return server;
  }

  @Override
  public byte[] privateData() {
    return privateData.clone();
  }

  @Override
  public synchronized Future<Received> recv(MemoryRegion dst, long offset, long length) {
    ContextInternal context = server.userContext();
    if (server.hasSharedQueue()) {
      return context.failedFuture(new IllegalStateException("recv: this server's connections take"
          + " their messages from its shared receive queue: post receives with the queue's recv"
          + " (RpmaSharedReceiveQueue.recv)"));
    }
    String bad = MemoryRegionImpl.checkUse(dst, server.peer(), MemoryUsage.RECV, offset, length);
    if (bad != null) {
      return context.failedFuture(new IllegalArgumentException("recv: " + bad));
    }
    MemoryRegionImpl region = (MemoryRegionImpl) dst;
    if (answered.get()) {
      return context.failedFuture(new IllegalStateException(
          "recv: post receives on a request before accepting it"));
    }
    if (!region.acquire()) {
      return context.failedFuture(new IllegalStateException("recv: the local region is closed"));
    }
    PromiseInternal<Received> promise = context.promise();
    receives.add(new QueuedOp(OpKind.RECV, region, offset, null, 0, length, 0, promise));
    return promise.future();
  }

  /** Fails receives that were never posted, releasing their regions. */
  static void fail(List<QueuedOp> receives, String why) {
    for (QueuedOp r : receives) {
      r.local().release();
      r.promise().tryFail(new RpmaConnectionClosedException("recv: " + why));
    }
  }

  @Override
  public Future<RpmaConnection> accept(byte[] privateData) {
    if (privateData != null && privateData.length > RpmaConnection.MAX_ACCEPT_PRIVATE_DATA) {
      return server.userContext().failedFuture(new IllegalArgumentException(
          "private data must be at most " + RpmaConnection.MAX_ACCEPT_PRIVATE_DATA
              + " bytes (the RDMA CM limit of an accept), got " + privateData.length));
    }
    if (!answered.compareAndSet(false, true)) {
      return server.userContext().failedFuture(
          new IllegalStateException("this request was already answered"));
    }
    // empty means none, as null does
    byte[] pdata = privateData == null || privateData.length == 0 ? null : privateData.clone();
    List<QueuedOp> posted = takeReceives();
    // it stays among its server's children until the accept settled: the server's close (and
    // its peer's) waits for the connection being made, which nobody owns yet
    Future<RpmaConnection> accepted = server.context().succeededFuture()
        .compose(v -> server.accept(req, pdata, posted))
        .onComplete(ar -> {
          server.answered(this);
          settled.tryComplete();
        });
    return LoopContexts.onCaller(server.userContext(), server.context(), accepted);
  }

  @Override
  public void reject() {
    if (answered.compareAndSet(false, true)) {
      server.answered(this);
      fail(takeReceives(), "the request was rejected");
      if (server.context().inThread()) {
        Native.connReqDelete(req);
        settled.tryComplete();
      } else {
        server.context().runOnContext(v -> {
          Native.connReqDelete(req);
          settled.tryComplete();
        });
      }
    }
  }

  private synchronized List<QueuedOp> takeReceives() {
    List<QueuedOp> taken = List.copyOf(receives);
    receives.clear();
    return taken;
  }

  /**
   * Its server is closing: a request nobody answered is rejected; an accepted one is waited for
   * (its connection owned by its peer, or deleted).
   */
  @Override
  public void close(Completable<Void> completion) {
    reject();
    settled.future().onComplete(ar -> completion.succeed());
  }
}
