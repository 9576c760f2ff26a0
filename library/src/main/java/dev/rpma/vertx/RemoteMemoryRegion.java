package dev.rpma.vertx;

import dev.rpma.vertx.impl.RemoteRegionImpl;
import io.vertx.core.Future;

/**
 * A peer's memory region, from the descriptor the peer handed over: a small native copy of its
 * address, key and size, which {@link #close()} frees. Like everything of this library that
 * holds native memory, it closes with a {@code Future}; one forgotten is freed after the
 * garbage collector finds it unreachable (a safety net, not a way to manage it: see
 * {@link #close()}).
 *
 * @since 0.1.0
 */
public interface RemoteMemoryRegion {

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

  /**
   * Frees the native copy once no operation is being posted with it; operations already posted
   * are not affected (the device copied address and key), new ones are refused. Closing again
   * returns the same Future.
   *
   * <p>A region never closed is freed some time after it becomes unreachable: the library
   * finds it the next time any remote region is made ({@link #fromDescriptor}) or any region is
   * registered, on that caller's thread (the library starts no thread for it). Close it
   * yourself to free it now.
   *
   * @return a Future completed when the native copy is freed, on the caller's context if it has
   *     one
   */
  Future<Void> close();
}
