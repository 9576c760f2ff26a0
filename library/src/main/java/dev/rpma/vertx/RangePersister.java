package dev.rpma.vertx;

import dev.rpma.vertx.impl.MappedRegionPersister;
import dev.rpma.vertx.impl.durable.MappedFilePersister;
import java.nio.MappedByteBuffer;
import java.util.Objects;

/**
 * How a server makes a range of its region durable when a client asks
 * ({@link DurabilityMethod#SERVER_PERSIST}). Called on a Vert.x worker thread: it may block.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RangePersister {

  /**
   * Makes {@code length} bytes at {@code offset} of the region durable, e.g. msync of a mapped
   * file. Returns only once they are; throws if they cannot be made so.
   *
   * @param offset where the range starts in the region, checked to lie inside it
   * @param length the range's length, at least 1
   * @throws Exception if the range could not be made durable: the client's Future fails
   */
  void persist(long offset, long length) throws Exception;

  /**
   * Persists through {@link MappedByteBuffer#force(int, int)}: msync of the file's pages (on
   * DAX persistent memory, a cache flush), after dirtying each page of the range from the CPU:
   * an RDMA write does not mark a page dirty, and msync writes back only dirty pages. For a
   * region registered over this mapping: the CPU write is an atomic add of 0 to an int in each
   * page of the range, which changes no byte.
   *
   * @param mapping the mapped file the region is registered over
   * @return the persister
   */
  static RangePersister of(MappedByteBuffer mapping) {
    Objects.requireNonNull(mapping, "mapping");
    return MappedFilePersister.of(mapping);
  }

  /**
   * Persists a region the library mapped from a file ({@link RpmaPeer#register(java.nio.file.Path,
   * long, long, java.util.Set)}), of any size: each page of the range dirtied from the CPU (as
   * {@link #of(MappedByteBuffer)} does, for the same reason), then msync. On device-DAX, where
   * the offer may declare persistent memory and clients then flush instead, it still works.
   *
   * @param region a region registered from a path
   * @return the persister
   * @throws IllegalArgumentException if the region was registered from a buffer
   * @since 0.1.0
   */
  static RangePersister of(MemoryRegion region) {
    Objects.requireNonNull(region, "region");
    return MappedRegionPersister.of(region);
  }
}
