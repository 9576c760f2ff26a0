package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.CompletionStats;

/** Counters of a connection's completion path; written on its loop only. */
final class ConnectionCounters {

  long completions;
  long drainCalls;
  long wakeups;
  long queued;
  long keepAliveProbes;

  CompletionStats snapshot() {
    return new CompletionStats(completions, drainCalls, wakeups, queued, keepAliveProbes);
  }
}
