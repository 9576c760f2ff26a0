package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaQueueClosedException;
import dev.rpma.vertx.RpmaServer;
import dev.rpma.vertx.impl.engine.EventPathGuard;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeError;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.List;

/**
 * A librpma endpoint: its fd on the owning context's loop; each readiness takes every pending
 * connection request (until EAGAIN) and hands it to the user's handler.
 */
final class ServerImpl implements RpmaServer, Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(ServerImpl.class);

  private final PeerImpl peer;
  private final ContextInternal context;
  /** Where requests are handed over and accepts complete: the caller's, else the loop's. */
  private final ContextInternal userContext;
  private final long ep;
  private final int port;
  private final ConnectionOptions options;
  private final long connCfg;
  private final Handler<RpmaConnectionRequest> requestHandler;
  /** The shared receive queue every accepted connection attaches to (held); null if none. */
  private final SharedReceiveQueueImpl queue;
  /** Requests nobody answered yet (closing rejects them) and accepted connections. */
  private final CloseFuture children = new CloseFuture();
  private LoopIo.FdWatch watcher;
  private Future<Void> closing;

  private ServerImpl(PeerImpl peer, ContextInternal context, ContextInternal userContext, long ep,
      int port, ConnectionOptions options, long connCfg, SharedReceiveQueueImpl queue,
      Handler<RpmaConnectionRequest> requestHandler) {
    this.queue = queue;
    this.peer = peer;
    this.context = context;
    this.userContext = userContext;
    this.ep = ep;
    this.port = port;
    this.options = options;
    this.connCfg = connCfg;
    this.requestHandler = requestHandler;
  }

  /** Call on the context, with a listening endpoint. */
  static Future<RpmaServer> start(PeerImpl peer, ContextInternal context,
      ContextInternal userContext, long ep, int port, ConnectionOptions options,
      SharedReceiveQueueImpl queue, Handler<RpmaConnectionRequest> requestHandler) {
    long cfg = Endpoints.newConnCfg(options, queue != null ? queue.handle() : 0);
    int fd = Native.epFd(ep);
    if (NativeError.isError(cfg) || fd < 0) {
      if (!NativeError.isError(cfg)) {
        Native.connCfgDelete(cfg);
      }
      long error = NativeError.isError(cfg) ? cfg : fd;
      return peer.blocking(context, () -> Native.epShutdown(ep))
          .transform(ar -> {
            if (queue != null) {
              queue.release();
            }
            return context.failedFuture(Errors.rpma("listen set-up", error));
          });
    }
    ServerImpl server = new ServerImpl(peer, context, userContext, ep, port, options, cfg,
        queue, requestHandler);
    if (queue != null) {
      queue.attach(server);
    }
    EventPathGuard guard = new EventPathGuard("listener on port " + port, server::failed);
    server.watcher = LoopContexts.loopIo(context).watch(fd, guard.wrap(server::onRequests));
    // owned by its peer and by the context that listened (a verticle's undeploy closes it);
    // a peer that closed while the endpoint was made does not know it: it closes itself (else
    // it would listen on, its endpoint's fd open, after its peer is gone)
    context.closeFuture().add(server);
    return server.watcher.start()
        .compose(v -> peer.owned().add(server) ? context.<RpmaServer>succeededFuture(server)
            : context.<RpmaServer>failedFuture(new IllegalStateException("the peer is closed")))
        .recover(e -> server.close().transform(ar -> context.failedFuture(e)));
  }

  private void onRequests() {
    while (closing == null) {
      long req = Native.epNextConnReq(ep, connCfg);
      if (NativeError.isError(req)) {
        if (NativeError.isAgain(req)) {
          return;
        }
        if (NativeError.code(req) == NativeError.RPMA_E_INVAL) {
          // an event of a request whose accept failed (librpma leaves it on the listener's
          // channel): that accept's Future said why already; one line per failure is enough
          LOG.debug("listener on port " + port + ": " + whyNoRequest(req));
          continue;
        }
        LOG.warn("listener on port " + port + ": " + whyNoRequest(req));
        return;
      }
      ConnectionRequestImpl request;
      try {
        byte[] pdata = Native.connReqPrivateData(req);
        request = new ConnectionRequestImpl(this, req, pdata == null ? new byte[0] : pdata);
        children.add(request);
      } catch (Throwable t) {
        // a request nobody holds would keep its client waiting for its connect timeout, and its
        // queue pair and CQ: reject it now (then the guard closes the listener)
        Native.connReqDelete(req);
        throw t;
      }
      // the user's handler: what it throws is the user's, reported by Vert.x as for any handler
      if (userContext == context) {
        userContext.emit(request, requestHandler);
      } else {
        userContext.runOnContext(v -> requestHandler.handle(request));
      }
    }
  }

  /**
   * An exception escaped the listener's path: requests would go on arriving with nobody to take
   * them (their clients waiting for their connect timeouts), so the server closes, saying why.
   */
  private void failed(Throwable t) {
    LOG.error("listener on port " + port + " failed on its event loop; the server is closed", t);
    close();
  }

  /** One line that says what went wrong with a request, and what to do about it. */
  private String whyNoRequest(long error) {
    String detail = Errors.rpma("rpma_ep_next_conn_req", error).getMessage();
    if (NativeError.code(error) == NativeError.RPMA_E_INVAL) {
      return "a connection-manager event that is not a connection request (left by a request"
          + " whose accept failed, or the device going away): " + detail;
    }
    String why = ConnectionLimits.why(NativeError.errno(error), peer.device(), options);
    return "a connection request could not be taken (its client's connect fails): " + detail
        + "." + (why == null ? "" : " Why: " + why);
  }

  /** Accepts a request, with the receives posted on it; on the server's context. */
  Future<RpmaConnection> accept(long req, byte[] privateData, List<QueuedOp> receives) {
    if (closing != null) {
      Native.connReqDelete(req);
      ConnectionRequestImpl.fail(receives, "the server is closed");
      return context.failedFuture(new IllegalStateException("the server is closed"));
    }
    if (queue != null && (queue.isClosing() || !queue.holdAgain())) {
      Native.connReqDelete(req); // its client's connect fails now
      return context.failedFuture(new RpmaQueueClosedException("accept: the shared receive"
          + " queue of the server on port " + port + " is closed; the request was rejected"));
    }
    return ConnectionImpl.accept(peer, context, userContext, req, privateData, receives, options,
        "connection accepted on port " + port, queue,
        VertxOperationMetrics.of(context, peer.address(), port, "server", options)).onSuccess(c -> {
          ConnectionImpl connection = (ConnectionImpl) c;
          if (children.add(connection)) {
            connection.whenClosed().onComplete(ar -> children.remove(connection));
          }
        });
  }

  ContextInternal context() {
    return context;
  }

  /** Where the request's and the accepted connection's Futures complete. */
  ContextInternal userContext() {
    return userContext;
  }

  PeerImpl peer() {
    return peer;
  }

  /** Whether its connections take their messages from a shared receive queue. */
  boolean hasSharedQueue() {
    return queue != null;
  }

  /** The request was accepted or rejected. */
  void answered(ConnectionRequestImpl request) {
    children.remove(request);
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public Future<Void> close() {
    if (!context.inThread()) {
      return context.succeededFuture().compose(v -> close());
    }
    if (closing == null) {
      // requests nobody answered are rejected, so their clients hear now, not at a timeout
      closing = children.close()
          .transform(ar -> watcher.unwatch())
          .transform(ar -> peer.blocking(context, () -> {
            Native.connCfgDelete(connCfg);
            return Errors.check("rpma_ep_shutdown", Native.epShutdown(ep));
          }))
          .onComplete(ar -> {
            peer.owned().remove(this);
            context.closeFuture().remove(this);
            if (queue != null) {
              queue.detach(this); // no queue pair of its can be made any more
            }
          })
          .mapEmpty();
    }
    return closing;
  }

  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }
}
