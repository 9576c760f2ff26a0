package dev.rpma.vertx;

import dev.rpma.vertx.impl.RemoteRegionImpl;

/** A peer's memory region, from the descriptor the peer handed over. */
public interface RemoteMemoryRegion extends AutoCloseable {

  /**
   * Decodes and validates a descriptor made by {@link MemoryRegion#descriptor()} or by librpma's
   * {@code rpma_mr_get_descriptor} on the other side.
   *
   * @param descriptor the bytes the peer handed over
   * @return the remote region; {@link #close()} it when done
   * @throws IllegalArgumentException if the bytes are not a valid descriptor
   */
  static RemoteMemoryRegion fromDescriptor(byte[] descriptor) {
    return RemoteRegionImpl.fromDescriptor(descriptor);
  }

  /**
   * The region's length, as the peer registered it.
   *
   * @return its size in bytes
   */
  long size();

  /**
   * Whether the peer registered it for flushing to persistence (else only visibility).
   *
   * @return true if {@link FlushType#PERSISTENT} flushes are allowed
   */
  boolean supportsPersistentFlush();

  /**
   * Whether the peer registered it for flushing to visibility.
   *
   * @return true if {@link FlushType#VISIBILITY} flushes are allowed
   */
  boolean supportsVisibilityFlush();

  /** Frees the native copy; operations already posted are not affected. */
  @Override
  void close();
}
