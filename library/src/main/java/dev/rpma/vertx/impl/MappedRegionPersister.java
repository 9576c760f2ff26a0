package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RangePersister;
import java.io.IOException;

/**
 * Persists a range of a region the library mapped from a file ({@code RpmaPeer.register(Path,
 * ...)}): its pages dirtied from the CPU, then msync ({@link Mapping#persist}). Why the
 * dirtying: an RDMA write reaches the page without the page tables, so msync alone would skip
 * a page already written back once (see {@code MappedFilePersister}, the same for a
 * {@code MappedByteBuffer}). Works past 2 GiB, where no Java mapping reaches.
 */
public final class MappedRegionPersister implements RangePersister {

  private final Mapping mapping;

  private MappedRegionPersister(Mapping mapping) {
    this.mapping = mapping;
  }

  /** See {@link RangePersister#of(MemoryRegion)}. */
  public static RangePersister of(MemoryRegion region) {
    if (region instanceof MemoryRegionImpl impl && impl.memory() instanceof Mapping mapping) {
      return new MappedRegionPersister(mapping);
    }
    throw new IllegalArgumentException("RangePersister.of(MemoryRegion) needs a region"
        + " registered from a path (RpmaPeer.register(Path, offset, length, usages)); for a"
        + " region over your own MappedByteBuffer use RangePersister.of(MappedByteBuffer)");
  }

  @Override
  public void persist(long offset, long length) throws IOException {
    if (offset < 0 || length < 1 || offset > mapping.size() - length) {
      throw new IndexOutOfBoundsException("cannot persist " + length + " bytes at " + offset
          + " of a region of " + mapping.size());
    }
    mapping.persist(offset, length);
  }
}
