package dev.rpma.vertx.internal;

/** One work completion as {@link RawConnection#poll} reads it; reused by its one reader. */
public final class RawCompletion {

  long wrId;
  int status;
  int vendorError;

  /** An empty one, for a poller to fill and reuse. */
  public RawCompletion() {
  }

  public long wrId() {
    return wrId;
  }

  /** The ibv_wc_status: 0 is success. */
  public int status() {
    return status;
  }

  public int vendorError() {
    return vendorError;
  }
}
