package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.jni.Native;

/**
 * What the device allows (ibv_query_device), read once when a peer opens: the limits a
 * connection's queues must fit in, and the ones named when the device runs out of queue pairs,
 * completion queues or regions. Soft-RoCE (rxe, kernel 6.1): max_qp 1048560, max_cq 1048576,
 * max_cqe 32767, max_qp_wr 1048576, max_mr 524287, max_srq 917503.
 *
 * @param known false if the device could not be asked (then no check is made from it)
 */
public record DeviceLimits(String device, boolean known, long maxQp, long maxCq, long maxCqe,
    long maxQpWr, long maxMr, long maxSrq) {

  /** Asks the device behind an ibv_context; on a worker (the query is a system call). */
  static DeviceLimits query(long ibvContext, String device) {
    long[] l = new long[6];
    if (Native.ibvDeviceLimits(ibvContext, l) != 0) {
      return new DeviceLimits(device, false, 0, 0, 0, 0, 0, 0);
    }
    return new DeviceLimits(device, true, l[0], l[1], l[2], l[3], l[4], l[5]);
  }

  /**
   * Null if the options' queues fit the device; else which one does not, its limit and the fix.
   * librpma would fail them with a bare provider error (EINVAL) once the connection is made.
   */
  String checkQueues(ConnectionOptions o) {
    if (!known) {
      return null;
    }
    if (o.getCqSize() > maxCqe) {
      return over("cqSize", o.getCqSize(), "max_cqe", maxCqe);
    }
    if (o.getRcqSize() > maxCqe) {
      return over("rcqSize", o.getRcqSize(), "max_cqe", maxCqe);
    }
    if (o.getSqSize() > maxQpWr) {
      return over("sqSize", o.getSqSize(), "max_qp_wr", maxQpWr);
    }
    if (o.getRqSize() > maxQpWr) {
      return over("rqSize", o.getRqSize(), "max_qp_wr", maxQpWr);
    }
    return null;
  }

  private String over(String option, int value, String limit, long max) {
    return option + " " + value + " is over what device " + device + " allows (" + limit + " "
        + max + "): set it to at most " + max;
  }

  /** "max_qp 1048560, max_cq 1048576" for messages; "unknown" if the device was not asked. */
  String queuePairsAndCqs() {
    return known ? "max_qp " + maxQp + ", max_cq " + maxCq : "limits unknown";
  }
}
