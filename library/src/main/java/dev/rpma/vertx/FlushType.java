package dev.rpma.vertx;

/**
 * How deep {@code flush} pushes data on the remote side (librpma's rpma_flush_type).
 *
 * @since 0.1.0
 */
public enum FlushType {
  /** Down to the persistent domain: needs the region registered with FLUSH_PERSISTENT. */
  PERSISTENT,
  /** Deep enough to be visible to the remote CPU: needs FLUSH_VISIBILITY. */
  VISIBILITY
}
