package dev.rpma.examples.features;

import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;

/** Waiting on the main thread, bounded, so that a step that never completes fails the run. */
final class Awaits {

  /** Far above any step on the emulated device; a hang ends as a failure naming the step. */
  static final long LIMIT_SECONDS = 120;

  private Awaits() {
  }

  /** Blocks this (main, never an event-loop) thread until {@code future} is done. */
  static <T> T await(Future<T> future) {
    return future.timeout(LIMIT_SECONDS, TimeUnit.SECONDS).await();
  }
}
