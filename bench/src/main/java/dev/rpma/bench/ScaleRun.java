package dev.rpma.bench;

import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The first {@code connections} connections of a {@link ScaleFixture}, each keeping a window of
 * {@link BenchConfig#SCALE_WINDOW} 64 B operations in flight, all on the one client loop, until
 * the deadline; then the windows drain. Counts completed Futures in total and per connection,
 * and the CPU time of the client loop, of the server loop and of the process over the same
 * interval (first post to last completion).
 */
final class ScaleRun {

  /** What each connection keeps in flight. */
  enum Variant {
    /** RDMA writes to the server's region: the server's CPU takes no part. */
    WRITE("write"),
    /** Sends, each taken by a receive the server side re-posts (one receive queue each). */
    SEND("send"),
    /** Sends, taken by ONE shared receive queue for every server side (issue 13). */
    SEND_SRQ("send-srq");

    final String label;

    Variant(String label) {
      this.label = label;
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final ScaleFixture fixture;
  private final Variant variant;
  private final int connections;
  private final long durationNanos;
  private final Thread serverLoop;
  private final long[] perConnection;
  private final Completable<Object>[] onDone;
  private final Promise<ScaleResult> done = Promise.promise();
  private long start;
  private long deadline;
  private long lastCompletion;
  private long completions;
  private int inFlight;
  private long loopCpuBefore;
  private long serverCpuBefore;
  private long processCpuBefore;
  private JvmActivity jvmBefore;

  @SuppressWarnings("unchecked")
  private ScaleRun(ScaleFixture fixture, Variant variant, int connections, long durationNanos,
      Thread serverLoop) {
    this.fixture = fixture;
    this.variant = variant;
    this.connections = connections;
    this.durationNanos = durationNanos;
    this.serverLoop = serverLoop;
    this.perConnection = new long[connections];
    // one listener per connection, made once: nothing allocated per operation by the harness
    this.onDone = new Completable[connections];
    for (int c = 0; c < connections; c++) {
      int conn = c;
      onDone[c] = (result, failure) -> onDone(conn, failure);
    }
  }

  static Future<ScaleResult> run(ScaleFixture fixture, Variant variant, int connections,
      long durationNanos, Thread serverLoop) {
    ScaleRun run = new ScaleRun(fixture, variant, connections, durationNanos, serverLoop);
    fixture.clientLoop.runOnContext(v -> run.begin());
    return run.done.future();
  }

  private void begin() {
    jvmBefore = JvmActivity.now();
    loopCpuBefore = THREADS.getCurrentThreadCpuTime();
    serverCpuBefore = THREADS.getThreadCpuTime(serverLoop.getId());
    processCpuBefore = processCpu();
    start = System.nanoTime();
    deadline = start + durationNanos;
    lastCompletion = start;
    inFlight = connections * BenchConfig.SCALE_WINDOW;
    for (int c = 0; c < connections; c++) {
      for (int slot = 0; slot < BenchConfig.SCALE_WINDOW; slot++) {
        post(c);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void post(int c) {
    RpmaConnection conn = fixture.clients.get(c);
    Future<?> op = variant == Variant.WRITE // both sends look alike from the client
        ? conn.write(fixture.remotes.get(c), 0, fixture.clientRegion, 0,
            BenchConfig.THROUGHPUT_SIZE)
        : conn.send(fixture.clientRegion, 0, BenchConfig.THROUGHPUT_SIZE);
    ((Future<Object>) op).onComplete(onDone[c]);
  }

  private void onDone(int c, Throwable failure) {
    long now = System.nanoTime();
    if (done.future().isComplete()) {
      return; // an earlier operation failed: let the rest drain, post nothing
    }
    if (failure != null) {
      done.tryFail(new IllegalStateException("scale " + variant.label + " with " + connections
          + " connections: an operation failed", failure));
      return;
    }
    perConnection[c]++;
    completions++;
    lastCompletion = now;
    if (now < deadline) {
      post(c);
    } else if (--inFlight == 0) {
      finish();
    }
  }

  private void finish() {
    long min = Long.MAX_VALUE;
    long max = 0;
    for (long n : perConnection) {
      min = Math.min(min, n);
      max = Math.max(max, n);
    }
    done.complete(new ScaleResult(variant.label, connections, completions,
        lastCompletion - start, min, max, THREADS.getCurrentThreadCpuTime() - loopCpuBefore,
        THREADS.getThreadCpuTime(serverLoop.getId()) - serverCpuBefore,
        processCpu() - processCpuBefore, JvmActivity.now().since(jvmBefore)));
  }

  private static long processCpu() {
    return ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
  }

  /**
   * One measured run.
   *
   * @param minPerConnection completions of the connection that got the fewest (fairness)
   * @param loopCpuNanos the client loop thread, which runs every client connection
   * @param serverLoopCpuNanos the server's loop thread (busy in the send variant only)
   */
  record ScaleResult(String variant, int connections, long completions, long elapsedNanos,
      long minPerConnection, long maxPerConnection, long loopCpuNanos, long serverLoopCpuNanos,
      long processCpuNanos, JvmActivity jvm) {

    double perSecond() {
      return elapsedNanos > 0 ? completions * 1e9 / elapsedNanos : 0;
    }
  }
}
