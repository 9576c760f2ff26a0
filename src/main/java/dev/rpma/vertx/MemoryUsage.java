package dev.rpma.vertx;

import java.util.Set;

/**
 * What a registered memory region may be used for (librpma's RPMA_MR_USAGE_*). The device
 * enforces the remote ones: a peer's access beyond them fails with IBV_WC_REM_ACCESS_ERR.
 *
 * <p>Note: librpma carries out a flush as an RDMA read of the region, so FLUSH_VISIBILITY and
 * FLUSH_PERSISTENT also let the peer read it, as READ_SRC does.
 */
public enum MemoryUsage {
  /** A remote peer may read from it (it is the source of the peer's {@code read}). */
  READ_SRC(1),
  /** The destination of our {@code read}. */
  READ_DST(1 << 1),
  /** The source of our {@code write}. */
  WRITE_SRC(1 << 2),
  /** A remote peer may write into it. */
  WRITE_DST(1 << 3),
  /** A remote peer may flush it to visibility (which also lets it read the region). */
  FLUSH_VISIBILITY(1 << 4),
  /** A remote peer may flush it to persistence (which also lets it read the region). */
  FLUSH_PERSISTENT(1 << 5),
  /** The source of our {@code send}. */
  SEND(1 << 6),
  /** The destination of our {@code recv}. */
  RECV(1 << 7);

  final int bit;

  MemoryUsage(int bit) {
    this.bit = bit;
  }

  /** The RPMA_MR_USAGE_* bit. */
  public int flag() {
    return bit;
  }

  /** The RPMA_MR_USAGE_* bits of a set of usages. */
  public static int flags(Set<MemoryUsage> usages) {
    int bits = 0;
    for (MemoryUsage u : usages) {
      bits |= u.bit;
    }
    return bits;
  }
}
