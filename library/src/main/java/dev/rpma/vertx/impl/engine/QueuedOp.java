package dev.rpma.vertx.impl.engine;

import io.vertx.core.internal.PromiseInternal;

/**
 * An operation between its call and its post: its regions already held, its promise made; its
 * token of {@link OperationMetrics} (null without metrics, and on a request's receives until the
 * connection takes them).
 */
public record QueuedOp(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
    long remoteOffset, long length, long extra, PromiseInternal<?> promise, Object metric) {

  /** An operation not measured (yet). */
  public QueuedOp(byte kind, HeldRegion local, long localOffset, HeldRegion remote,
      long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
    this(kind, local, localOffset, remote, remoteOffset, length, extra, promise, null);
  }

  /** Gives back the regions of an operation that will never be posted. */
  void releaseRegions() {
    HeldRegion.release(local, remote);
  }
}
