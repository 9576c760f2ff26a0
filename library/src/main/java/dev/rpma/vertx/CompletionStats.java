package dev.rpma.vertx;

/**
 * Counters of one connection's completion path, read on its context. A completion is counted
 * before its operation's Future completes: the Future's callbacks see it (and its batch)
 * counted, so the last callback of a workload reads the workload's full count.
 *
 * <p>Together they show how the drain runs ({@link ConnectionOptions#setDrainBatch},
 * {@link ConnectionOptions#setDrainBudget}, {@link ConnectionOptions#setBusyPollMicros}):
 * {@code completions / drainCalls} is the batch the polls found; {@code wakeups} close to
 * {@code drainCalls} means the loop sleeps between most batches (each wakeup costs the event's
 * system calls: busy polling or a larger window of operations in flight saves them), while few
 * wakeups beside many drain calls means the completion queue never ran dry: each drain went on
 * from the last, the loop always had completions waiting.
 *
 * @param completions work completions taken from the CQs
 * @param drainCalls native calls that took completions (one per batch)
 * @param wakeups completion events the loop was woken for: a completion fd became readable and
 *     its event was consumed (which re-arms the CQ), starting a drain. Neither a drain that goes
 *     on after a previous one used up its budget (it needs no event: completions already in
 *     the CQ raise none) nor a completion taken while busy polling counts one
 * @param queuedOperations operations that had to wait for room in the queues
 * @param keepAliveProbes zero-byte reads sent because the connection was idle (see
 *     {@link ConnectionOptions#setKeepAliveMs}); a busy connection sends none
 *
 * @since 0.1.0
 */
public record CompletionStats(long completions, long drainCalls, long wakeups,
    long queuedOperations, long keepAliveProbes) {
}
