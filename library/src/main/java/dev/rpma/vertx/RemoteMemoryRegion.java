package dev.rpma.vertx;

import dev.rpma.vertx.impl.RemoteRegionImpl;

/** A peer's memory region, from the descriptor the peer handed over. */
public interface RemoteMemoryRegion extends AutoCloseable {

  /**
   * Decodes and validates a descriptor made by {@link MemoryRegion#descriptor()} or by librpma's
   * {@code rpma_mr_get_descriptor} on the other side.
   *
   * @throws IllegalArgumentException if the bytes are not a valid descriptor
   */
  static RemoteMemoryRegion fromDescriptor(byte[] descriptor) {
    return RemoteRegionImpl.fromDescriptor(descriptor);
  }

  long size();

  /** Whether the peer registered it for flushing to persistence (else only visibility). */
  boolean supportsPersistentFlush();

  /** Whether the peer registered it for flushing to visibility. */
  boolean supportsVisibilityFlush();

  /** Frees the native copy; operations already posted are not affected. */
  @Override
  void close();
}
