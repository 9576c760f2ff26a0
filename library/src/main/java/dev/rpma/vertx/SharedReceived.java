package dev.rpma.vertx;

/**
 * What a completed {@link RpmaSharedReceiveQueue#recv} delivered, and from which connection:
 * the device writes a message into whichever receive of the queue is free, so the connection
 * is told apart by the queue pair the message arrived on.
 *
 * <p>When it is delivered, its connection is usable: established, taking operations (a reply
 * on it goes out), and, on the queue's context, its accept's or connect's Future has completed
 * and run its callbacks (a message that arrives before the connection's ESTABLISHED event was
 * handled waits for it). On another context (a worker's) those callbacks may still be queued.
 * The one exception is a connection that ended: a message of a connection that never got
 * established (its accept failed or timed out) or that has closed since is still delivered,
 * naming that closed connection, since the message itself arrived.
 *
 * @param connection the connection the message came from (it may be closed by now: the message
 *     arrived before it closed, and is delivered all the same)
 * @param byteLength bytes received (for a write with immediate data: the bytes written)
 * @param hasImmediate whether immediate data came with it
 * @param immediate the immediate data, in host order; 0 when there is none
 *
 * @since 0.1.0
 */
public record SharedReceived(RpmaConnection connection, int byteLength, boolean hasImmediate,
    int immediate) {
}
