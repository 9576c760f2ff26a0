package dev.rpma.vertx;

import io.vertx.core.Future;

/** A listening endpoint. */
public interface RpmaServer {

  /** The port it listens on. */
  int port();

  /** Stops listening and closes the connections it accepted. */
  Future<Void> close();
}
