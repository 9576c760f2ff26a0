package dev.rpma.bench;

import dev.rpma.vertx.internal.EventFd;
import dev.rpma.vertx.internal.LoopWatch;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Does a busy connection keep the rest of its event loop waiting? An eventfd is watched on the
 * driver's own event loop, the way the library watches a CQ's fd (LoopWatch); a plain thread
 * signals it every {@link #PERIOD_MS} ms, and the probe records how long after the first
 * unhandled signal the loop handled it: first with the loop idle, then while the driver keeps a
 * window of writes in flight. Any other fd on that loop (a socket, the connection's own CM
 * events) waits as long. An eventfd involves no network stack: what it measures is the loop.
 *
 * <p>Beside the lateness, where the loop thread's time went over the phase ({@link SchedStat}):
 * running, waiting for the CPU, and the CPUs' time in interrupts and softirqs (the emulated
 * device's work); and what the GC (its pauses stop the loop) and the JIT (its threads take the
 * loop's vCPU) did meanwhile. A diagnostic beside the benchmark, not one of its figures.
 */
final class LoopProbe {

  static final long PERIOD_MS = 10;

  private final Driver driver;
  private final ContextInternal context;
  private final Samples lateness = new Samples(1024);
  private final AtomicLong signals = new AtomicLong();
  /** System.nanoTime of the oldest signal not handled yet; 0 when none is pending. */
  private final AtomicLong oldestPending = new AtomicLong();
  private volatile boolean signalling = true;
  private EventFd eventFd;
  private LoopWatch watcher;
  /** The loop thread's scheduling when the phase began (read on the loop). */
  private SchedStat schedAtStart;
  /** The JIT's and the GC's work when the phase began: both stop or slow the loop too. */
  private JvmActivity jvmAtStart;

  private LoopProbe(Driver driver) {
    this.driver = driver;
    this.context = (ContextInternal) driver.context();
  }

  /**
   * Probes the loop of {@code driver} for {@code millis} idle, then for {@code millis} under a
   * window of {@code window} writes; one report line per phase.
   */
  static void run(Driver driver, int window, long millis, Report report) throws Exception {
    // unreported: the first signals load and compile the probe's own path
    new LoopProbe(driver).phase(() -> sleep(millis));
    report.probe(driver.name(), 0, new LoopProbe(driver).phase(() -> sleep(millis)));
    // unreported too: the probe's path under a window compiles anew (35-41 ms of JIT inside
    // the reported phase of both passes of a counted --repeat, each with one 6 ms lateness:
    // its p99 over 99 signals was that one, 5.86 ms, over 100 the next, 2.14)
    new LoopProbe(driver).phase(() -> underWindow(driver, window, millis));
    report.probe(driver.name(), window,
        new LoopProbe(driver).phase(() -> underWindow(driver, window, millis)));
  }

  private static void underWindow(Driver driver, int window, long millis) {
    Fixture.await(ThroughputRun.run(driver, window, BenchConfig.THROUGHPUT_SIZE,
        millis * 1_000_000));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Map<String, Long> phase(Runnable load) throws Exception {
    // a compilation inside a phase holds the loop up like a slow batch (jit 39 ms in a phase
    // whose p99 moved 2.1 -> 5.0 ms between two counted runs): start with an empty queue
    Jit.awaitIdleOrWarn();
    Fixture.await(watch());
    Thread signaller = new Thread(this::signal, "loop-probe-signaller");
    signaller.setDaemon(true);
    signaller.start();
    try {
      load.run();
    } finally {
      signalling = false;
      signaller.join();
    }
    sleep(2 * PERIOD_MS); // the last signal's turn
    Promise<Map<String, Long>> result = Promise.promise();
    context.runOnContext(v -> {
      Map<String, Long> sched = SchedStat.now().since(schedAtStart);
      watcher.stop().onComplete(ar -> {
        closeEventFd();
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("sent", signals.get());
        figures.put("handled", (long) lateness.count());
        figures.put("median_ns", lateness.percentile(0.50));
        figures.put("p99_ns", lateness.percentile(0.99));
        figures.put("max_ns", lateness.percentile(1.0));
        figures.putAll(sched);
        JvmActivity jvm = JvmActivity.now().since(jvmAtStart);
        figures.put("gc_count", jvm.gcCount());
        figures.put("gc_ms", jvm.gcMillis());
        figures.put("jit_ms", jvm.jitMillis());
        result.complete(figures);
      });
    });
    return Fixture.await(result.future());
  }

  /** A new eventfd in the epoll set of the driver's loop. */
  private Future<Void> watch() {
    Promise<Void> watching = Promise.promise();
    context.runOnContext(v -> {
      eventFd = EventFd.open();
      watcher = LoopWatch.create(context, eventFd.fd(), this::onSignal);
      schedAtStart = SchedStat.now();
      jvmAtStart = JvmActivity.now();
      watcher.start().onComplete(watching);
    });
    return watching.future();
  }

  /** On the loop: consume the eventfd's count, record how long the oldest signal waited. */
  private void onSignal() {
    long now = System.nanoTime();
    eventFd.reset();
    long oldest = oldestPending.getAndSet(0);
    if (oldest != 0) {
      lateness.add(now - oldest);
    }
  }

  /** Every PERIOD_MS a signal; sleeps in between (never spins). */
  private void signal() {
    while (signalling) {
      oldestPending.compareAndSet(0, System.nanoTime());
      eventFd.signal();
      signals.incrementAndGet();
      sleep(PERIOD_MS);
    }
  }

  private void closeEventFd() {
    try {
      eventFd.close();
    } catch (IllegalStateException e) {
      System.err.println("bench: loop probe: closing the eventfd failed: " + e);
    }
  }
}
