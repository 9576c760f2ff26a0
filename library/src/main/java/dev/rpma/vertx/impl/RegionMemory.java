package dev.rpma.vertx.impl;

import java.nio.ByteBuffer;

/**
 * The memory under a registered region: a direct buffer users gave ({@link BufferMemory}), or
 * a mapping of a file or device-DAX device the library made ({@link Mapping}), which may be
 * longer than a Java buffer holds and is then seen through windows.
 */
interface RegionMemory {

  /** Its length in bytes. */
  long size();

  /**
   * A buffer over [offset, offset + length), no copy; the range is checked by the caller.
   *
   * @throws IllegalStateException if the memory is gone (a mapping after its region closed)
   */
  ByteBuffer window(long offset, int length);

  /** Whether writes into it land in persistent memory (a device-DAX mapping). */
  boolean persistent();

  /** Its region was deregistered: the device no longer touches it. On the peer's worker. */
  void deregistered();
}
