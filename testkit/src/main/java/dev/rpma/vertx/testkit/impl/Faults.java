package dev.rpma.vertx.testkit.impl;

import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The faults a test injects into the in-JVM device: operations failed with a given status,
 * completions late or held back. Guarded by the device's lock.
 */
final class Faults {

  private final ArrayDeque<Integer> failNext = new ArrayDeque<>();
  private long latencyMs;
  private boolean stalled;
  private final List<Runnable> held = new ArrayList<>();

  void failNext(int status) {
    failNext.add(status);
  }

  /** The status the next posted operation is failed with, or null for none. */
  Integer takeFailure() {
    return failNext.poll();
  }

  void latencyMs(long ms) {
    latencyMs = ms;
  }

  /** Held back until {@link #resume()}. */
  void stall() {
    stalled = true;
  }

  /** The completions held back, to deliver (in order) outside the lock. */
  List<Runnable> resume() {
    stalled = false;
    List<Runnable> out = new ArrayList<>(held);
    held.clear();
    return out;
  }

  /** Delivers {@code wc} into {@code cq} now, later, or when resumed. */
  void deliver(Vertx vertx, KitCq cq, KitCq.Wc wc) {
    Runnable add = () -> cq.add(wc);
    if (stalled) {
      held.add(add);
    } else if (latencyMs > 0) {
      vertx.setTimer(latencyMs, id -> add.run());
    } else {
      add.run();
    }
  }
}
