package dev.rpma.vertx;

/** How deep {@code flush} pushes data on the remote side (librpma's rpma_flush_type). */
public enum FlushType {
  /** Down to the persistent domain: needs the region registered with FLUSH_PERSISTENT. */
  PERSISTENT(0),
  /** Deep enough to be visible to the remote CPU: needs FLUSH_VISIBILITY. */
  VISIBILITY(1);

  final int nativeValue;

  FlushType(int nativeValue) {
    this.nativeValue = nativeValue;
  }

  /** The rpma_flush_type value. */
  public int nativeValue() {
    return nativeValue;
  }
}
