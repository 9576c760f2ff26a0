package dev.rpma.vertx;

import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Local memory registered with the device. Offsets given to operations are relative to the
 * start of the region (the buffer's position at registration).
 */
public interface MemoryRegion {

  /**
   * The registered bytes.
   *
   * @return a view from the region's start, of {@link #size()} bytes
   */
  ByteBuffer buffer();

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
   *
   * @return a fresh copy of the descriptor's bytes
   */
  byte[] descriptor();

  /**
   * Deregisters the region once the operations using it have completed; new operations are
   * refused from now on.
   *
   * @return a Future completed when the region is deregistered
   */
  Future<Void> close();
}
