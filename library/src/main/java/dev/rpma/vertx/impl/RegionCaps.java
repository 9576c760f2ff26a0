package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.JniMapping;

/**
 * What the device offers regions, read once when a peer opens: the largest region it
 * registers ({@code max_mr_size}) and whether it pages on demand (ODP: a registration pins
 * nothing, so fs-DAX files and memory past the memlock limit can be registered). Soft-RoCE
 * (rxe, kernel 6.1): max_mr_size 2^64 - 1 (reported as -1 in a signed long), no ODP.
 *
 * @param known false if the device could not be asked (then no check is made from it)
 * @param maxMrSize the largest region in bytes, unsigned (-1: 2^64 - 1, no limit)
 */
public record RegionCaps(boolean known, long maxMrSize, boolean onDemandPaging) {

  public static final RegionCaps UNKNOWN = new RegionCaps(false, -1, false);

  /** Asks the device behind an ibv_context; on a worker. */
  static RegionCaps query(long ibvContext) {
    long[] caps = JniMapping.regionCaps(ibvContext);
    return caps == null ? UNKNOWN : new RegionCaps(true, caps[0], caps[1] != 0);
  }

  /** max_mr_size as a long: Long.MAX_VALUE if more than a long holds, or unknown. */
  long maxRegionSize() {
    return known && maxMrSize >= 0 ? maxMrSize : Long.MAX_VALUE;
  }

  /** Whether a region of {@code bytes} is over max_mr_size. */
  boolean tooLarge(long bytes) {
    return known && Long.compareUnsigned(bytes, maxMrSize) > 0;
  }
}
