package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.RangePersister;
import java.nio.MappedByteBuffer;

/**
 * Persists a range of a mapped file: msync ({@link MappedByteBuffer#force(int, int)}) after
 * marking its pages dirty from the CPU. Why the marking: an RDMA write reaches the page without
 * the page tables (an RNIC by DMA, rxe by a kernel copy), so the kernel does not know the page
 * changed; msync writes back only pages it knows are dirty, and a page already written back
 * once (by an earlier persist) would stay clean on disk, without the record written into it
 * since. Storing each page's byte of the range back through the mapping faults the page
 * writable again and dirties it. The bytes are final (the client wrote them before it asked), so
 * storing the value read changes nothing, and nothing else writes them.
 */
public final class MappedFilePersister implements RangePersister {

  /** The smallest page size of the platforms served; a larger page is touched more than once. */
  private static final int PAGE = 4096;

  private final MappedByteBuffer mapping;

  private MappedFilePersister(MappedByteBuffer mapping) {
    this.mapping = mapping;
  }

  /** See {@link RangePersister#of}. */
  public static RangePersister of(MappedByteBuffer mapping) {
    return new MappedFilePersister(mapping);
  }

  @Override
  public void persist(long offset, long length) {
    int from = Math.toIntExact(offset);
    int end = Math.toIntExact(offset + length);
    for (int at = from; at < end; at = (at / PAGE + 1) * PAGE) {
      mapping.put(at, mapping.get(at));
    }
    mapping.force(from, end - from);
  }
}
