package dev.rpma.bench;

/**
 * Counters of a completion path.
 *
 * @param completions work completions taken from the CQ
 * @param drainCalls native calls that returned completions (the library: one per batch; the
 *     thread-hop design: one per completion)
 * @param wakeups times the completion fd woke the path up (epoll readiness, or a blocking
 *     rpma_cq_wait returning)
 */
public record Counters(long completions, long drainCalls, long wakeups) {

  public Counters minus(Counters before) {
    return new Counters(completions - before.completions, drainCalls - before.drainCalls,
        wakeups - before.wakeups);
  }
}
