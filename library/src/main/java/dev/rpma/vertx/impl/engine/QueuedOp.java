package dev.rpma.vertx.impl.engine;

import io.vertx.core.internal.PromiseInternal;

/** An operation between its call and its post: its regions already held, its promise made. */
public record QueuedOp(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
    long remoteOffset, long length, long extra, PromiseInternal<?> promise) {

  /** Gives back the regions of an operation that will never be posted. */
  void releaseRegions() {
    if (local != null) {
      local.release();
    }
    if (remote != null) {
      remote.release();
    }
  }
}
