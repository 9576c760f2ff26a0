package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import java.util.function.IntConsumer;

/**
 * Checks twice per completion timeout whether operations are in flight while no completion came
 * since the last check; two such checks in a row mean the device or the path stopped answering
 * without an error. Reads a counter: nothing on the completion path.
 */
final class Watchdog {

  private final EngineClock clock;
  /** Its timer is an entry from the loop: an exception closes the connection. */
  private final EventPathGuard guard;
  private final int timeoutMs;
  private final ConnectionCounters counters;
  private final InFlight inFlight;
  private final IntConsumer onStall;
  private long timer = -1;
  private long completionsAtLastCheck;
  private int stalledChecks;

  /** {@code onStall}: called with the number of operations in flight; 0 disables the dog. */
  Watchdog(EngineClock clock, EventPathGuard guard, int timeoutMs,
      ConnectionCounters counters, InFlight inFlight, IntConsumer onStall) {
    this.clock = clock;
    this.guard = guard;
    this.timeoutMs = timeoutMs;
    this.counters = counters;
    this.inFlight = inFlight;
    this.onStall = onStall;
  }

  void start() {
    if (timeoutMs > 0) {
      timer = clock.setPeriodic(Math.max(1, timeoutMs / 2), guard.handler(id -> check()));
    }
  }

  void stop() {
    if (timer != -1) {
      clock.cancelTimer(timer);
      timer = -1;
    }
  }

  private void check() {
    boolean stalled = inFlight.sendsInFlight() > 0
        && counters.completions == completionsAtLastCheck;
    completionsAtLastCheck = counters.completions;
    stalledChecks = stalled ? stalledChecks + 1 : 0;
    if (stalledChecks >= 2) {
      stop();
      onStall.accept(inFlight.sendsInFlight());
    }
  }
}
