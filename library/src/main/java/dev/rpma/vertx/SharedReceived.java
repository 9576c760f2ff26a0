package dev.rpma.vertx;

/**
 * What a completed {@link RpmaSharedReceiveQueue#recv} delivered, and from which connection:
 * the device writes a message into whichever receive of the queue is free, so the connection
 * is told apart by the queue pair the message arrived on.
 *
 * @param connection the connection the message came from (it may be closed by now: the message
 *     arrived before it closed)
 * @param byteLength bytes received (for a write with immediate data: the bytes written)
 * @param hasImmediate whether immediate data came with it
 * @param immediate the immediate data, in host order; 0 when there is none
 */
public record SharedReceived(RpmaConnection connection, int byteLength, boolean hasImmediate,
    int immediate) {
}
