package dev.rpma.vertx;

import io.vertx.core.Future;

/**
 * A listening endpoint.
 *
 * @since 0.1.0
 */
public interface RpmaServer {

  /**
   * The port it listens on, as a {@code NetServer}'s: the one given to {@code listen}, or the
   * free port the library picked for port 0.
   *
   * @return the port
   */
  int actualPort();

  /**
   * Stops listening and closes the connections it accepted.
   *
   * @return a Future completed when they are closed
   */
  Future<Void> close();
}
