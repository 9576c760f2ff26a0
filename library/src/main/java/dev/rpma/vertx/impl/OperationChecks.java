package dev.rpma.vertx.impl;

import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RemoteMemoryRegion;

/**
 * The argument checks of every operation, on the calling thread, before anything is held or
 * posted. Each returns null if the arguments are fine, else what is wrong, said so the caller
 * can fix it.
 */
final class OperationChecks {

  private OperationChecks() {
  }

  static String local(MemoryRegion region, PeerImpl peer, MemoryUsage usage, long offset,
      long length) {
    return MemoryRegionImpl.checkUse(region, peer, usage, offset, length);
  }

  static String remote(RemoteMemoryRegion region, long offset, long length) {
    if (!(region instanceof RemoteRegionImpl r)) {
      return region == null ? "the remote region is null" : "not a region of vertx-rpma";
    }
    return r.check(offset, length);
  }

  static String length(long length) {
    // zero bytes is an operation too (librpma >= 0.10): a probe, or a fence behind writes
    return length < 0 ? "length must not be negative, got " + length : null;
  }

  static String atomicOffset(long offset) {
    return offset % 8 != 0 ? "the offset must be 8-byte aligned, got " + offset : null;
  }

  /** The flush type is given and the remote region was registered for it. */
  static String flushType(RemoteMemoryRegion dst, FlushType type) {
    if (type == null) {
      return "the flush type is null";
    }
    if (type == FlushType.PERSISTENT && !dst.supportsPersistentFlush()) {
      return "the remote region was not registered for FLUSH_PERSISTENT";
    }
    if (type == FlushType.VISIBILITY && !dst.supportsVisibilityFlush()) {
      return "the remote region was not registered for FLUSH_VISIBILITY";
    }
    return null;
  }

  /** The first problem, or null. */
  static String firstOf(String... problems) {
    for (String p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  /** The checks of a read or write: a length, a local region for the usage, a remote range. */
  static String transfer(PeerImpl peer, MemoryRegion local, MemoryUsage usage, long localOffset,
      RemoteMemoryRegion remote, long remoteOffset, long length) {
    return firstOf(length(length), local(local, peer, usage, localOffset, length),
        remote(remote, remoteOffset, length));
  }
}
