package dev.rpma.bench;

import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * A window of 64 B writes kept full on the driver's context: each completed Future posts the
 * next write from its slot, until the deadline; then the window drains. Counts completed
 * Futures per second, and each write's latency from post to completion.
 */
final class ThroughputRun {

  private final Driver driver;
  private final int size;
  private final long durationNanos;
  private final long[] postedAt;
  private final Completable<Void>[] onDone;
  private final Samples samples = new Samples(1 << 16);
  private final Promise<RunResult> done = Promise.promise();
  private Counters before;
  private JvmActivity jvmBefore;
  private CpuTime cpuBefore;
  private long start;
  private long deadline;
  private long lastCompletion;
  private long completions;
  private int inFlight;

  @SuppressWarnings("unchecked")
  private ThroughputRun(Driver driver, int window, int size, long durationNanos) {
    this.driver = driver;
    this.size = size;
    this.durationNanos = durationNanos;
    this.postedAt = new long[window];
    // one listener per slot, made once: nothing allocated per operation by the harness
    this.onDone = new Completable[window];
    for (int slot = 0; slot < window; slot++) {
      int s = slot;
      onDone[slot] = (result, failure) -> onDone(s, failure);
    }
  }

  /** Runs for {@code durationNanos} (then drains the window) and reports. */
  static Future<RunResult> run(Driver driver, int window, int size, long durationNanos) {
    ThroughputRun run = new ThroughputRun(driver, window, size, durationNanos);
    driver.context().runOnContext(v -> run.begin());
    return run.done.future();
  }

  private void begin() {
    before = driver.counters();
    jvmBefore = JvmActivity.now();
    cpuBefore = CpuTime.now(driver);
    start = System.nanoTime();
    deadline = start + durationNanos;
    lastCompletion = start;
    inFlight = postedAt.length;
    for (int slot = 0; slot < postedAt.length; slot++) {
      post(slot);
    }
  }

  private void post(int slot) {
    postedAt[slot] = System.nanoTime();
    driver.write(size).onComplete(onDone[slot]);
  }

  private void onDone(int slot, Throwable failure) {
    long now = System.nanoTime();
    if (done.future().isComplete()) {
      return; // an earlier write failed: let the rest of the window drain, post nothing
    }
    if (failure != null) {
      done.tryFail(new IllegalStateException(driver.name() + " window " + postedAt.length
          + ": a write failed", failure));
      return;
    }
    samples.add(now - postedAt[slot]);
    completions++;
    lastCompletion = now;
    if (now < deadline) {
      post(slot);
    } else if (--inFlight == 0) {
      done.complete(new RunResult(samples, completions, lastCompletion - start,
          driver.counters().minus(before), JvmActivity.now().since(jvmBefore),
          CpuTime.now(driver).since(cpuBefore)));
    }
  }
}
