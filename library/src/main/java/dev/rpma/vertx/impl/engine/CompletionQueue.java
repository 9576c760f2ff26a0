package dev.rpma.vertx.impl.engine;

import java.util.function.Consumer;

/**
 * Drains one CQ on its connection's event loop.
 *
 * <p>On readiness of the CQ's fd: consume the pending event, then poll, in one native call;
 * poll again while batches come back full. After {@code budget} completions, or
 * {@link #TIME_BUDGET_NANOS} of draining, whichever comes first, the loop is yielded to its
 * other I/O and the rest is drained at its next I/O phase ({@link DrainContinuation}): leftover
 * completions raise no new event, so they must not wait for one.
 */
final class CompletionQueue {

  /**
   * How long one drain may hold the loop: the count budget alone let a saturated connection
   * keep another fd of its loop waiting 31 ms at the median on the emulated device (the loop
   * probe of bench run E), where delivering 1,024 completions takes that long; on an RNIC the
   * count comes first. Checked once per full batch, so it costs a clock read per batch.
   */
  static final long TIME_BUDGET_NANOS = 1_000_000;

  private final CompletionSource source;
  private final CompletionSink sink;
  private final ConnectionCounters counters;
  private final int batch;
  private final int budget;
  private final Runnable continueLater;
  private final Consumer<RuntimeException> onFailure;
  private boolean stopped;

  /**
   * {@code continueLater}: asks for {@link #drainNow()} from the loop's next I/O phase;
   * {@code onFailure}: waiting or polling failed (not "nothing pending").
   */
  CompletionQueue(CompletionSource source, CompletionSink sink, ConnectionCounters counters,
      int batch, int budget, Runnable continueLater, Consumer<RuntimeException> onFailure) {
    this.source = source;
    this.sink = sink;
    this.counters = counters;
    this.batch = batch;
    this.budget = budget;
    this.continueLater = continueLater;
    this.onFailure = onFailure;
  }

  /** The CQ's own fd became readable: consume its event, then drain. */
  void onReadable() {
    counters.wakeups++;
    drain(true);
  }

  /** Drain without consuming events (shared channel: the connection consumed them). */
  void drainNow() {
    drain(false);
  }

  /** No more draining, also not from a queued continuation. */
  void stop() {
    stopped = true;
  }

  private void drain(boolean consumeEvent) {
    int left = budget;
    long start = System.nanoTime();
    boolean consume = consumeEvent;
    while (!stopped) {
      int n;
      try {
        n = source.drain(consume, batch, sink);
      } catch (RuntimeException e) {
        onFailure.accept(e);
        return;
      }
      consume = false;
      if (n > 0) {
        counters.drainCalls++;
        counters.completions += n;
      }
      if (n < batch) {
        return; // the CQ is empty; the CQ was re-armed before this poll
      }
      left -= n;
      if (left <= 0 || System.nanoTime() - start >= TIME_BUDGET_NANOS) {
        continueLater.run(); // yield the loop to its other I/O, then go on
        return;
      }
    }
  }
}
