package dev.rpma.examples.replicated;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * Spaces the writer's records at least {@code periodMs} apart, whatever the window would allow:
 * a log fed at a steady rate, as an application appends, rather than as fast as the servers
 * persist. Runs on the writer's context only.
 */
final class Pacer {

  private final Vertx vertx;
  private final long periodNanos;
  private long nextNanos = System.nanoTime();

  Pacer(Vertx vertx, long periodMs) {
    this.vertx = vertx;
    this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMs);
  }

  /** Completes when the next record may start. */
  Future<Void> slot() {
    if (periodNanos == 0) {
      return Future.succeededFuture();
    }
    long now = System.nanoTime();
    long at = Math.max(now, nextNanos);
    nextNanos = at + periodNanos;
    long waitMs = TimeUnit.NANOSECONDS.toMillis(at - now);
    if (waitMs < 1) {
      return Future.succeededFuture();
    }
    Promise<Void> go = Promise.promise();
    vertx.setTimer(waitMs, id -> go.complete());
    return go.future();
  }
}
