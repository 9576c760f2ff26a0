package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.CompletionStats;

/** Counters of a connection's completion path; written on its loop only. */
public final class ConnectionCounters {

  public long completions;
  public long drainCalls;
  public long wakeups;
  public long queued;

  public CompletionStats snapshot() {
    return new CompletionStats(completions, drainCalls, wakeups, queued);
  }
}
