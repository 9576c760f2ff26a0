package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.seam.OpKind;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.engine.ServerRequest;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.impl.loop.LoopContexts;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.net.SocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An incoming request as the user sees it: checks, then its server's engine
 * ({@link ServerRequest}), which answers it exactly once on the server's loop.
 */
final class ConnectionRequestImpl implements RpmaConnectionRequest {

  private final ServerImpl server;
  private final ServerRequest request;
  private final AtomicBoolean answered = new AtomicBoolean();

  ConnectionRequestImpl(ServerImpl server, ServerRequest request) {
    this.server = server;
    this.request = request;
  }

  ServerImpl server() {
    return server;
  }

  @Override
  public byte[] privateData() {
    return request.privateData().clone();
  }

  @Override
  public SocketAddress localAddress() {
    return server.localAddress();
  }

  @Override
  public SocketAddress remoteAddress() {
    return null; // librpma does not tell it: see the interface
  }

  @Override
  public Future<Received> recv(MemoryRegion dst, long offset, long length) {
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
    if (!request.offer(new QueuedOp(OpKind.RECV, region, offset, null, 0, length, 0, promise))) {
      region.release(); // answered meanwhile, or its server closed
      return context.failedFuture(new IllegalStateException(
          "recv: post receives on a request before it is answered (accepted, rejected, or"
              + " rejected by its server's close)"));
    }
    return promise.future();
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
    // the server's close waits for the accept in progress: the connection being made, which
    // nobody owns yet, is owned by the server, or deleted
    Future<RpmaConnection> accepted = server.context().succeededFuture()
        .compose(v -> server.accept(request, pdata));
    return LoopContexts.onCaller(server.userContext(), server.context(), accepted);
  }

  @Override
  public void reject() {
    if (answered.compareAndSet(false, true)) {
      server.reject(request);
    }
  }
}
