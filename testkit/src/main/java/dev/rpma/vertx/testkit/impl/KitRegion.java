package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.MemoryUsage;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A region registered on the in-JVM device: its memory, what it may be used for, and the peer
 * (protection domain) it belongs to, as the device checks them on every access.
 */
record KitRegion(long handle, ByteBuffer memory, Set<MemoryUsage> usages, KitPeer owner) {

  /** The device writes into it locally (a read's or a receive's destination). */
  boolean locallyWritable() {
    return usages.contains(MemoryUsage.READ_DST) || usages.contains(MemoryUsage.RECV)
        || usages.contains(MemoryUsage.WRITE_DST);
  }

  boolean inRange(long offset, long length) {
    return offset >= 0 && length >= 0 && offset + length <= memory.capacity();
  }

  /** A copy of [offset, offset + length). */
  byte[] read(long offset, int length) {
    byte[] bytes = new byte[length];
    memory.duplicate().position((int) offset).get(bytes);
    return bytes;
  }

  void write(long offset, byte[] bytes, int length) {
    memory.duplicate().position((int) offset).put(bytes, 0, length);
  }
}
