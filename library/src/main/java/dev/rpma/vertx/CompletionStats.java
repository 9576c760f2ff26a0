package dev.rpma.vertx;

/**
 * Counters of one connection's completion path, read on its context.
 *
 * @param completions work completions taken from the CQs
 * @param drainCalls native calls that took completions (one per batch)
 * @param wakeups readiness notifications of the completion fds
 * @param queuedOperations operations that had to wait for room in the queues
 * @param keepAliveProbes zero-byte reads sent because the connection was idle (see
 *     {@link ConnectionOptions#setKeepAliveMs}); a busy connection sends none
 */
public record CompletionStats(long completions, long drainCalls, long wakeups,
    long queuedOperations, long keepAliveProbes) {
}
