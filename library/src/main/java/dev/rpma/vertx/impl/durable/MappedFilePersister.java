package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.RangePersister;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;

/**
 * Persists a range of a mapped file: msync ({@link MappedByteBuffer#force(int, int)}) after
 * marking its pages dirty from the CPU. Why the marking: an RDMA write reaches the page without
 * the page tables (an RNIC by DMA, rxe by a kernel copy), so the kernel does not know the page
 * changed; msync writes back only pages it knows are dirty, and a page already written back
 * once would stay clean on disk, without the records written into it since (the power-loss
 * control {@code msync-only} lost every record that way). A CPU write to each page of the range
 * faults it writable again and dirties it.
 */
public final class MappedFilePersister implements RangePersister {

  /** The smallest page size of the platforms served; a larger page is touched more than once. */
  private static final int PAGE = 4096;
  private static final VarHandle INTS =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

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
    if (from < 0 || end > mapping.capacity() || from >= end) {
      throw new IndexOutOfBoundsException("cannot persist " + length + " bytes at " + offset
          + " of a mapping of " + mapping.capacity());
    }
    for (int at = from; at < end; at = (at / PAGE + 1) * PAGE) {
      dirty(at);
    }
    mapping.force(from, end - from);
  }

  /**
   * A CPU write to the page holding {@code at} that changes no byte: an atomic add of 0 to the
   * aligned int around it. Atomic, so a device writing the neighbouring bytes at the same time
   * loses nothing; and not a store of the value just loaded, which a JIT may drop as a no-op.
   */
  private void dirty(int at) {
    int index = at - mapping.alignmentOffset(at, Integer.BYTES);
    if (index < 0) {
      index += Integer.BYTES;
    } else if (index + Integer.BYTES > mapping.capacity()) {
      index -= Integer.BYTES;
    }
    INTS.getAndAdd(mapping, index, 0);
  }
}
