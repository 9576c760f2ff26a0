package dev.rpma.examples;

import dev.rpma.vertx.CompletionStats;

/** Report lines shared by the examples. */
final class Latencies {

  private Latencies() {
  }

  /** "p50 1.23 ms, p99 4.56 ms, max 7.89 ms" */
  static String summary(LatencyRecorder latencies) {
    return "p50 " + millis(latencies.percentile(50)) + ", p99 "
        + millis(latencies.percentile(99)) + ", max " + millis(latencies.max());
  }

  /**
   * How the completions came in: in how many batches (native calls), after how many completion
   * events woke the event loop (few beside many batches: the CQ never ran dry, each drain went
   * on from the last), and how many operations had to wait for room in the queues.
   */
  static String statsSummary(CompletionStats stats) {
    return String.format("%d, in %d batches; wakeups %d; waited for queue room %d",
        stats.completions(), stats.drainCalls(), stats.wakeups(), stats.queuedOperations());
  }

  private static String millis(long nanos) {
    return String.format("%.3f ms", nanos / 1e6);
  }
}
