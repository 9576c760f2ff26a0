package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import io.vertx.core.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/** An incoming request, answered exactly once, on the server's loop. */
final class ConnectionRequestImpl implements RpmaConnectionRequest {

  private final ServerImpl server;
  private final long req;
  private final byte[] privateData;
  private final AtomicBoolean answered = new AtomicBoolean();

  ConnectionRequestImpl(ServerImpl server, long req, byte[] privateData) {
    this.server = server;
    this.req = req;
    this.privateData = privateData;
  }

  @Override
  public byte[] privateData() {
    return privateData.clone();
  }

  @Override
  public Future<RpmaConnection> accept(byte[] privateData) {
    if (privateData != null && (privateData.length == 0
        || privateData.length > RpmaConnection.MAX_ACCEPT_PRIVATE_DATA)) {
      return server.context().failedFuture(new IllegalArgumentException(
          "private data must be 1 to " + RpmaConnection.MAX_ACCEPT_PRIVATE_DATA
              + " bytes (the RDMA CM limit of an accept), got " + privateData.length));
    }
    if (!answered.compareAndSet(false, true)) {
      return server.context().failedFuture(
          new IllegalStateException("this request was already answered"));
    }
    server.answered(this);
    byte[] pdata = privateData == null ? null : privateData.clone();
    return server.context().succeededFuture().compose(v -> server.accept(req, pdata));
  }

  @Override
  public void reject() {
    if (answered.compareAndSet(false, true)) {
      server.answered(this);
      if (server.context().inThread()) {
        Native.connReqDelete(req);
      } else {
        server.context().runOnContext(v -> Native.connReqDelete(req));
      }
    }
  }
}
