package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.function.Consumer;

/**
 * Notices a peer that went away without a word (its host lost power, the wire was cut) on a
 * connection with nothing in flight, which the {@link Watchdog} cannot see: an RC queue pair
 * learns of a dead peer only when it sends something. Once per interval: if no completion came
 * during the last interval and nothing is in flight, it posts a probe, a zero-byte RDMA read,
 * which the peer's device answers by itself (no receive consumed, nothing for the peer's
 * application to do). A busy connection completes operations and is never probed.
 *
 * <p>A probe is an operation like any other: it fails on its own when the device's retries
 * run out (the peer is gone), which closes the connection with a reason naming keepalive, and
 * the {@link Watchdog} closes the connection if it is not answered within the completion
 * timeout (its reason names the probe). No deadline of its own: a probe whose packet was lost on
 * a briefly cut wire is retransmitted by the device, and must not be declared dead sooner.
 * Bound: probed one to two intervals after the last completion, then the sooner of the
 * device's retries and the watchdog. Reads counters: nothing on the completion path.
 */
final class KeepAlive {

  /** Posts the probe as an operation: a zero-byte read with no regions. */
  interface Prober {
    void probe(PromiseInternal<Void> probe);
  }

  private final ContextInternal context;
  private final EngineClock clock;
  /** Its timer is an entry from the loop: an exception closes the connection. */
  private final EventPathGuard guard;
  private final int intervalMs;
  private final ConnectionCounters counters;
  private final InFlight inFlight;
  private final Prober prober;
  private final CloseReasons reasons;
  private final Consumer<RpmaConnectionClosedException> onDead;
  private long timer = -1;
  private long completionsAtLastCheck;
  private PromiseInternal<Void> probe;

  KeepAlive(ContextInternal context, EngineClock clock, EventPathGuard guard, int intervalMs,
      ConnectionCounters counters, InFlight inFlight, Prober prober, CloseReasons reasons,
      Consumer<RpmaConnectionClosedException> onDead) {
    this.context = context;
    this.clock = clock;
    this.guard = guard;
    this.intervalMs = intervalMs;
    this.counters = counters;
    this.inFlight = inFlight;
    this.prober = prober;
    this.reasons = reasons;
    this.onDead = onDead;
  }

  /** From ESTABLISHED on; 0 ms disables it. */
  void start() {
    if (intervalMs > 0) {
      completionsAtLastCheck = counters.completions;
      timer = clock.setPeriodic(intervalMs, guard.handler(id -> check()));
    }
  }

  void stop() {
    if (timer != -1) {
      clock.cancelTimer(timer);
      timer = -1;
    }
  }

  /** Whether a probe is out, unanswered: what the watchdog says when it is what is stuck. */
  boolean probing() {
    return probe != null && !probe.future().isComplete();
  }

  private void check() {
    if (probing()) {
      return; // the device's retries, or the watchdog, decide
    }
    probe = null;
    boolean idle = counters.completions == completionsAtLastCheck
        && inFlight.sendsInFlight() == 0;
    completionsAtLastCheck = counters.completions;
    if (idle) {
      counters.keepAliveProbes++;
      PromiseInternal<Void> sent = context.promise();
      probe = sent;
      sent.future().onFailure(guard.handler(e -> {
        if (timer != -1) { // not when the connection is closing anyway
          stop();
          onDead.accept(reasons.keepAliveFailed(e));
        }
      }));
      prober.probe(sent);
    }
  }
}
