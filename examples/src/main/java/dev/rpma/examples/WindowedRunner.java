package dev.rpma.examples;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.function.BooleanSupplier;

/**
 * Runs operations 0..count-1 with at most {@code window} in flight, timing each one.
 *
 * <p>The window is a set of lanes: each lane starts its next operation when its last one has
 * completed, so a lane number is also a buffer slot nobody else touches while the lane's
 * operation is in flight. Everything happens on one event loop (the context the operations
 * complete on), so there is no locking, and nothing waits but the futures.
 */
public final class WindowedRunner {

  /** Starts operation {@code index} using the buffers of {@code lane}. */
  @FunctionalInterface
  public interface Operation {
    Future<?> start(long index, int lane);
  }

  private final String what;
  private final long count;
  private final Operation operation;
  private final BooleanSupplier more;
  private final LatencyRecorder latencies;
  private final Promise<Measurement> done = Promise.promise();
  private long next;
  private int activeLanes;
  private long startNanos;

  private WindowedRunner(String what, long count, Operation operation, BooleanSupplier more) {
    this.what = what;
    this.count = count;
    this.operation = operation;
    this.more = more;
    this.latencies = new LatencyRecorder(count);
  }

  /**
   * Call on the context the operations complete on. Fails with an
   * {@link OperationFailedException} naming the first operation that failed; no new operation
   * starts after a failure.
   *
   * @param what what one operation is, for messages ("record", "round trip")
   */
  public static Future<Measurement> run(String what, long count, int window,
      Operation operation) {
    return run(what, count, window, operation, () -> true);
  }

  /**
   * The same, but no operation starts once {@code more} says false: the run ends early, with
   * the operations started so far (its measurement counts those).
   */
  public static Future<Measurement> run(String what, long count, int window,
      Operation operation, BooleanSupplier more) {
    WindowedRunner runner = new WindowedRunner(what, count, operation, more);
    runner.startNanos = System.nanoTime();
    int lanes = (int) Math.min(window, count);
    runner.activeLanes = lanes;
    if (count == 0) {
      runner.finish();
    }
    // not up to activeLanes: a lane whose operations complete at once may end meanwhile
    for (int lane = 0; lane < lanes; lane++) {
      runner.continueLane(lane);
    }
    return runner.done.future();
  }

  private void continueLane(int lane) {
    if (done.future().isComplete()) {
      return;
    }
    if (next == count || !more.getAsBoolean()) {
      if (--activeLanes == 0) {
        finish();
      }
      return;
    }
    long index = next++;
    long started = System.nanoTime();
    Future<?> op;
    try {
      op = operation.start(index, lane);
    } catch (RuntimeException e) {
      op = Future.failedFuture(e);
    }
    op.onComplete(ar -> {
      if (ar.failed()) {
        done.tryFail(new OperationFailedException(what, index, ar.cause()));
        return;
      }
      latencies.record(System.nanoTime() - started);
      continueLane(lane);
    });
  }

  private void finish() {
    done.tryComplete(new Measurement(next, System.nanoTime() - startNanos, latencies));
  }
}
