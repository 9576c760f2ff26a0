package dev.rpma.vertx.impl;

import io.vertx.core.net.SocketAddress;

/**
 * A connection's two ends as far as librpma tells them (it keeps the rdma_cm ids to itself):
 * {@code remote} is null where it is not known (the client, on a server's side).
 */
record ConnectionEnds(SocketAddress local, SocketAddress remote) {

  /** A server's side of a connection: its listener's address, the client unknown. */
  static ConnectionEnds accepted(SocketAddress listener) {
    return new ConnectionEnds(listener, null);
  }
}
