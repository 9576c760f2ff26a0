package dev.rpma.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;

/**
 * A way to exchange 64 B messages between two verticles' contexts, for the channel benchmark:
 * the message channel, or send/recv posted by hand. Called on {@link #context()} only.
 */
interface MessagePath {

  /** The name in the results: {@code channel} or {@code hand-posted}. */
  String name();

  /** The client's context: the Futures complete on it. */
  Context context();

  /** A message the server echoes; completes when the echo is in. */
  Future<Void> roundTrip();

  /** A message the server takes and drops; completes when the device reports it sent. */
  Future<Void> oneWay();

  Future<Void> close();
}
