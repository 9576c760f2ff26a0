package dev.rpma.examples;

import dev.rpma.vertx.DurabilityMethod;
import io.vertx.core.Deployable;
import io.vertx.core.Future;

/**
 * A log client verticle, in whatever style (callbacks in Java, coroutines in Kotlin): once
 * deployed it appends the configured records, and {@link #result()} says how that went.
 */
public interface LogClient extends Deployable {

  /** Completes when every record is durable, or fails with the first append that failed. */
  Future<ClientReport> result();

  /** What the client is, for the report: "Java", "Kotlin coroutines". */
  String style();

  /**
   * How the client's appends are made durable, from the server's offer (null until
   * connected): the report counts the completions each record costs by it.
   */
  DurabilityMethod durability();
}
