package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.impl.engine.QueuedOp;
import dev.rpma.vertx.impl.engine.ServerEngine;
import dev.rpma.vertx.impl.engine.ServerRequest;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaQueueClosedException;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.SocketAddress;
import java.util.List;

/**
 * A server: the user's side of a {@link ServerEngine}, which owns the listener (the request
 * loop, accept, reject, close). This hands requests to the user's handler on the user's
 * context, makes the accepted connections and owns them.
 */
final class ServerImpl implements RpmaServer, Closeable, ServerEngine.Owner {

  private final PeerImpl peer;
  private final ContextInternal context;
  /** Where requests are handed over and accepts complete: the caller's, else the loop's. */
  private final ContextInternal userContext;
  private final int port;
  /** Where it listens: the host it was given, the port it listens on. */
  private final SocketAddress localAddress;
  private final ConnectionOptions options;
  private final Handler<RpmaConnectionRequest> requestHandler;
  /** The shared receive queue every accepted connection attaches to (held); null if none. */
  private final SharedReceiveQueueImpl queue;
  /** The connections it accepted: closed with it. */
  private final CloseFuture accepted = new CloseFuture();
  private final ServerEngine engine;
  /** Completed when it begins to close, however (its user, its peer, an undeploy, a fault). */
  private final Promise<Void> closing = Promise.promise();

  private ServerImpl(PeerImpl peer, ContextInternal context, ContextInternal userContext,
      LibrpmaEndpoint endpoint, String host, int port, ConnectionOptions options,
      SharedReceiveQueueImpl queue, Handler<RpmaConnectionRequest> requestHandler) {
    this.queue = queue;
    this.localAddress = SocketAddress.inetSocketAddress(port, host);
    this.peer = peer;
    this.context = context;
    this.userContext = userContext;
    this.port = port;
    this.options = options;
    this.requestHandler = requestHandler;
    this.engine = new ServerEngine(context, "listener on port " + port,
        peer.loopIo(context), peer.setupCalls(), endpoint, this);
  }

  /** Call on the context, with an endpoint listening on {@code host}:{@code port}. */
  static Future<RpmaServer> start(PeerImpl peer, ContextInternal context,
      ContextInternal userContext, LibrpmaEndpoint endpoint, String host, int port,
      ConnectionOptions options, SharedReceiveQueueImpl queue,
      Handler<RpmaConnectionRequest> requestHandler) {
    ServerImpl server = new ServerImpl(peer, context, userContext, endpoint, host, port, options,
        queue, requestHandler);
    if (queue != null) {
      queue.attach(server);
    }
    // owned by its peer and by the context that listened (a verticle's undeploy closes it);
    // a peer that closed while the endpoint was made does not know it: it closes itself (else
    // it would listen on, its endpoint's fd open, after its peer is gone)
    context.closeFuture().add(server);
    return server.engine.start()
        .compose(v -> peer.owned().add(server) ? context.<RpmaServer>succeededFuture(server)
            : context.<RpmaServer>failedFuture(new IllegalStateException("the peer is closed")))
        .recover(e -> server.close().transform(ar -> context.failedFuture(e)));
  }

  @Override
  public void request(ServerRequest taken) {
    ConnectionRequestImpl request = new ConnectionRequestImpl(this, taken);
    // the user's handler: what it throws is the user's, reported by Vert.x as for any handler
    if (userContext == context) {
      userContext.emit(request, requestHandler);
    } else {
      userContext.runOnContext(v -> requestHandler.handle(request));
    }
  }

  @Override
  public RuntimeException lackingFds() {
    return peer.librpmaToFree().lackingFds();
  }

  @Override
  public String limitHint(int errno) {
    return ConnectionLimits.why(errno, peer.device(), options);
  }

  /** Accepts a request, with the receives posted on it; on the server's context. */
  Future<RpmaConnection> accept(ServerRequest request, byte[] privateData) {
    return engine.accept(request, (req, receives) -> connect(req, privateData, receives));
  }

  private Future<RpmaConnection> connect(LibrpmaRequest req, byte[] privateData,
      List<QueuedOp> receives) {
    if (queue != null && (queue.isClosing() || !queue.holdAgain())) {
      req.delete(); // its client's connect fails now
      ServerRequest.failReceives(receives, "the request was rejected");
      return context.failedFuture(new RpmaQueueClosedException("accept: the shared receive"
          + " queue of the server on port " + port + " is closed; the request was rejected"));
    }
    return ConnectionImpl.accept(peer, context, userContext, req, privateData, receives, options,
        "connection accepted on port " + port, queue, ConnectionEnds.accepted(peer.deviceIndex(), localAddress),
        VertxOperationMetrics.of(context, peer.address(), port, "server", options)).onSuccess(c -> {
          ConnectionImpl connection = (ConnectionImpl) c;
          if (accepted.add(connection)) {
            connection.whenClosed().onComplete(ar -> accepted.remove(connection));
          }
        });
  }

  /** Rejects a request nobody answered; on any thread. */
  void reject(ServerRequest request) {
    if (context.inThread()) {
      engine.reject(request);
    } else {
      context.runOnContext(v -> engine.reject(request));
    }
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

  @Override
  public int actualPort() {
    return port;
  }

  /** Where it listens, as a request's and an accepted connection's local address. */
  SocketAddress localAddress() {
    return localAddress;
  }

  /** Completes when it begins to close (RpmaDirectory withdraws its publications then). */
  Future<Void> whenClosing() {
    return closing.future();
  }

  @Override
  public Future<Void> closeAccepted() {
    return accepted.close();
  }

  @Override
  public void closed() {
    closing.tryComplete();
    peer.owned().remove(this);
    context.closeFuture().remove(this);
    if (queue != null) {
      queue.detach(this); // no queue pair of its can be made any more
    }
  }

  @Override
  public Future<Void> close() {
    if (!context.inThread()) {
      return context.succeededFuture().compose(v -> close());
    }
    closing.tryComplete();
    return engine.close();
  }

  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }
}
