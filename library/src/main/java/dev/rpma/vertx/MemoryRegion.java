package dev.rpma.vertx;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Local memory registered with the device. Offsets given to operations are relative to the
 * start of the region (the buffer's position at registration).
 *
 * <p><b>Life.</b> Like everything of this library that holds native memory, a region closes
 * with a {@code Future} ({@link #close()}); closing its peer closes it too. The memory is the
 * direct buffer given to {@link RpmaPeer#register}, kept reachable by the region until it is
 * deregistered. A region never closed is deregistered some time after it becomes unreachable
 * (the next time a region is registered or a remote region made, on that caller's thread: the
 * library starts no thread for it); a safety net against leaks of pinned memory, not a way to
 * manage regions: close them. Not once its {@link #descriptor()} was taken: peers may then read
 * and write it with nothing in this JVM holding it (a server that keeps only its offer's bytes),
 * so it stays registered until closed or until its peer closes, and a warning is logged when it
 * is found unreachable.
 *
 * @since 0.1.0
 */
public interface MemoryRegion {

  /**
   * The registered bytes.
   *
   * @return a view from the region's start, of {@link #size()} bytes
   * @throws IllegalStateException if the region is larger than a {@code ByteBuffer} holds
   *     (2 GiB - 1 bytes; see {@link #window}), or is a closed region of a file
   */
  ByteBuffer buffer();

  /**
   * A direct buffer over part of the registered memory, without a copy, for regions of any
   * size (a region of a file or device-DAX device may be far larger than one buffer holds).
   * As with {@link #buffer()}, do not touch bytes an operation in flight is using until its
   * Future completes.
   *
   * <p>A window of a file's region stays safe to touch for as long as it is held, but once the
   * region is closed it no longer shows the file: from then on it is throw-away memory, and the
   * library unmaps it once no window is reachable any more.
   *
   * @param offset where the window starts, from the region's start
   * @param length the window's length in bytes, at most 2 GiB - 1
   * @return a buffer of {@code length} bytes sharing the region's memory
   * @throws IllegalArgumentException if [offset, offset + length) is not inside the region
   * @throws IllegalStateException if the region is closed
   * @since 0.1.0
   */
  ByteBuffer window(long offset, int length);

  /**
   * Whether writes into this region land in persistent memory: true for a region of a
   * device-DAX device ({@code /dev/daxN.M}), false for a buffer or a file (whose bytes reach
   * storage only when the file is synced). A server may declare
   * {@link PeerConfig#create(boolean) PeerConfig.create(true)} for its offered regions only when
   * they are persistent memory (and its platform flushes what the NIC writes into it).
   *
   * @return true for persistent memory
   * @since 0.1.0
   */
  boolean persistentMemory();

  /**
   * A Vert.x {@link Buffer} over part of the registered memory, without a copy: what the device
   * writes there (receives, the peer's writes, reads' results) is what the Buffer reads, and
   * what is set through it is what the device sends or the peer reads. Use its
   * {@code get*}/{@code set*} methods: its capacity is fixed at {@code length}, so
   * {@code append*} beyond it throws {@code IndexOutOfBoundsException} rather than move the
   * bytes away from the registered memory. As with {@link #buffer()}, do not touch bytes an
   * operation in flight is using until its Future completes.
   *
   * <p>The view stays valid memory for as long as it is held (it keeps the buffer reachable),
   * but once the region is closed the device no longer reads or writes it: from then on it is
   * ordinary memory, no longer the region's.
   *
   * @param offset where the view starts, from the region's start
   * @param length the view's length in bytes
   * @return a Buffer of {@code length} bytes sharing the region's memory
   * @throws IllegalArgumentException if [offset, offset + length) is not inside the region
   * @throws IllegalStateException if the region is closed
   */
  Buffer slice(long offset, int length);

  /**
   * The region's length.
   *
   * @return its size in bytes
   */
  long size();

  /**
   * What the region was registered for.
   *
   * @return the usages given to {@link RpmaPeer#register}
   */
  Set<MemoryUsage> usages();

  /**
   * The descriptor a peer needs to reach this region (address, key, size, flush type), to hand
   * over in private data or a message; see {@link RemoteMemoryRegion#fromDescriptor(byte[])}.
   * From then on the region is never deregistered for being unreachable (peers may use it):
   * only its {@link #close()} or its peer's.
   *
   * @return a fresh copy of the descriptor's bytes
   */
  byte[] descriptor();

  /**
   * Deregisters the region once the operations using it have completed; new operations are
   * refused from now on. Closing again returns the same Future.
   *
   * @return a Future completed when the region is deregistered
   */
  Future<Void> close();
}
