package dev.rpma.vertx.impl.jni;

import java.nio.ByteBuffer;

/**
 * A region on a file or device-DAX device as the system and librpma see it (rpma_jni_map.c):
 * the shared mapping, windows onto it, its registration, what the device offers such regions.
 * Translation only; what a result means is decided by the callers.
 */
public final class JniMapping {

  private JniMapping() {
  }

  /**
   * mmap of [offset, offset + length) of the file, read-write and shared. Blocks (page tables,
   * a device's set-up): on a worker.
   *
   * @param sync its element 0 is set to 1 if the mapping is synchronous (MAP_SYNC: DAX)
   * @return the address, or -errno
   */
  public static long map(String path, long offset, long length, long[] sync) {
    return Native.mapFile(path, offset, length, sync);
  }

  /** munmap; 0 or errno. */
  public static int unmap(long address, long length) {
    return Native.unmap(address, length);
  }

  /** The mapping replaced by anonymous memory that reserves nothing; 0 or errno. */
  public static int retire(long address, long length) {
    return Native.retireMapping(address, length);
  }

  /**
   * [address, address + length) of a shared mapping made durable: each page dirtied by a CPU
   * write that changes no byte, then msync. Blocks: on a worker.
   *
   * @param address inside a mapping, as is the whole range (widened to whole pages)
   * @return 0 or errno
   */
  public static int persist(long address, long length) {
    return Native.persistMapping(address, length);
  }

  /** A direct buffer over [address, address + length), no copy. */
  public static ByteBuffer window(long address, int length) {
    ByteBuffer window = Native.window(address, length);
    if (window == null) {
      throw new IllegalStateException("NewDirectByteBuffer failed for " + length + " bytes");
    }
    return window;
  }

  /** rpma_mr_reg of a mapping; throws librpma's error. Blocks: on a worker. */
  public static long register(long peer, long address, long length, int usageFlags) {
    return Errors.check("rpma_mr_reg", Native.mrRegMapped(peer, address, length, usageFlags));
  }

  /** max_mr_size and ODP (1 or 0) of the device; null if the device could not be asked. */
  public static long[] regionCaps(long ibvContext) {
    long[] caps = new long[2];
    return Native.regionCaps(ibvContext, caps) == 0 ? caps : null;
  }

  /** "ENOENT (No such file or directory)". */
  public static String errnoText(int errno) {
    return Native.errnoString(errno);
  }
}
