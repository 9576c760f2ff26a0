package dev.rpma.vertx;

/**
 * What a completed {@code recv} delivered: the number of bytes written into the region, and
 * the immediate data when the sender used {@code sendWithImm} or {@code writeWithImm}.
 *
 * @param byteLength bytes received (for a write with immediate data: the bytes written)
 * @param hasImmediate whether immediate data came with it
 * @param immediate the immediate data, in host order; 0 when there is none
 *
 * @since 0.1.0
 */
public record Received(int byteLength, boolean hasImmediate, int immediate) {
}
