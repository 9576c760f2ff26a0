package dev.rpma.vertx;

/**
 * Counters of one side of an {@link RpmaMessageChannel}, read on its context.
 *
 * @param messagesSent messages the device reported sent
 * @param messagesReceived messages received (delivered or waiting to be)
 * @param creditMessagesSent zero-byte credit messages sent (return traffic was idle)
 * @param creditMessagesReceived zero-byte credit messages received
 * @param credits messages this side may send now (receives the peer has posted and told)
 * @param waitingWrites messages written and not yet posted (no credit or no send buffer)
 * @param heldMessages messages received and not yet handed to the handler (paused): their
 *     receive buffers are not posted again until they are
 *
 * @since 0.1.0
 */
public record MessageChannelStats(long messagesSent, long messagesReceived,
    long creditMessagesSent, long creditMessagesReceived, int credits, int waitingWrites,
    int heldMessages) {
}
