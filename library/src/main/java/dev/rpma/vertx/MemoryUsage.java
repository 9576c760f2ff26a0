package dev.rpma.vertx;


/**
 * What a registered memory region may be used for (librpma's RPMA_MR_USAGE_*). The device
 * enforces the remote ones: a peer's access beyond them fails with IBV_WC_REM_ACCESS_ERR.
 *
 * <p>Note: librpma carries out a flush as an RDMA read of the region, so FLUSH_VISIBILITY and
 * FLUSH_PERSISTENT also let the peer read it, as READ_SRC does.
 *
 * @since 0.1.0
 */
public enum MemoryUsage {
  /** A remote peer may read from it (it is the source of the peer's {@code read}). */
  READ_SRC,
  /** The destination of our {@code read}. */
  READ_DST,
  /** The source of our {@code write}. */
  WRITE_SRC,
  /** A remote peer may write into it. */
  WRITE_DST,
  /** A remote peer may flush it to visibility (which also lets it read the region). */
  FLUSH_VISIBILITY,
  /** A remote peer may flush it to persistence (which also lets it read the region). */
  FLUSH_PERSISTENT,
  /** The source of our {@code send}. */
  SEND,
  /** The destination of our {@code recv}. */
  RECV
}
