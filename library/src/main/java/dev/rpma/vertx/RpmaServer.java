package dev.rpma.vertx;

import io.vertx.core.Future;

/** A listening endpoint. */
public interface RpmaServer {

  /**
   * The port it listens on.
   *
   * @return the port
   */
  int port();

  /**
   * Stops listening and closes the connections it accepted.
   *
   * @return a Future completed when they are closed
   */
  Future<Void> close();
}
