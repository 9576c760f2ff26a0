package dev.rpma.bench;

import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * One operation in flight: post, wait for its Future, post the next; all on the driver's
 * context, as a Vert.x application would. Measures each operation from the call to the Future's
 * completion. The listener is one object for the whole run, so the harness allocates nothing
 * per operation that the driver does not.
 */
final class LatencyRun {

  private final Driver driver;
  private final Op op;
  private final int size;
  private final int ops;
  private final Samples samples;
  private final Promise<RunResult> done = Promise.promise();
  private final Completable<Void> onDone = this::onDone;
  private Counters before;
  private JvmActivity jvmBefore;
  private CpuTime cpuBefore;
  private long start;
  private long postedAt;
  private Future<Void> pairFirst;
  private int posted;

  private LatencyRun(Driver driver, Op op, int size, int ops) {
    this.driver = driver;
    this.op = op;
    this.size = size;
    this.ops = ops;
    this.samples = new Samples(ops);
  }

  /** Runs {@code ops} operations, one after the other. */
  static Future<RunResult> run(Driver driver, Op op, int size, int ops) {
    LatencyRun run = new LatencyRun(driver, op, size, ops);
    driver.context().runOnContext(v -> run.begin());
    return run.done.future();
  }

  private void begin() {
    before = driver.counters();
    jvmBefore = JvmActivity.now();
    cpuBefore = CpuTime.now(driver);
    start = System.nanoTime();
    postNext();
  }

  private void postNext() {
    posted++;
    postedAt = System.nanoTime();
    Future<Void> last;
    if (op == Op.WRITE_FLUSH) {
      pairFirst = driver.write(size);
      last = driver.flush(size);
    } else {
      last = op == Op.READ ? driver.read(size) : driver.write(size);
    }
    last.onComplete(onDone);
  }

  private void onDone(Void result, Throwable failure) {
    long now = System.nanoTime();
    if (failure == null && pairFirst != null && !pairFirst.succeeded()) {
      failure = pairFirst.failed() ? pairFirst.cause()
          : new IllegalStateException("the flush completed before its write");
    }
    if (failure != null) {
      done.tryFail(new IllegalStateException(driver.name() + " " + op.label + " " + size
          + " B failed", failure));
      return;
    }
    samples.add(now - postedAt);
    if (posted < ops) {
      postNext();
      return;
    }
    done.complete(new RunResult(samples, ops, now - start, driver.counters().minus(before),
        JvmActivity.now().since(jvmBefore), CpuTime.now(driver).since(cpuBefore)));
  }
}
