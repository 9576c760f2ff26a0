package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.OpKind;

/**
 * Room in the queues: an operation is posted only when the send (or receive) queue has a free
 * entry AND the CQ it completes on can take its completion, so no call sequence can overrun a
 * CQ. Without a receive CQ, sends and receives share the main CQ.
 */
final class FlowControl {

  private final int sendLimit;
  private final int recvLimit;
  private final int sharedCqLimit;
  private int sendsInFlight;
  private int recvsInFlight;

  FlowControl(ConnectionOptions o) {
    boolean separateRecvCq = o.getRcqSize() > 0;
    sendLimit = Math.min(o.getSqSize(), o.getCqSize());
    recvLimit = Math.min(o.getRqSize(), separateRecvCq ? o.getRcqSize() : o.getCqSize());
    sharedCqLimit = separateRecvCq ? Integer.MAX_VALUE : o.getCqSize();
  }

  /** The most operations that can be in flight at once: the size of the pending table. */
  int capacity() {
    return sendLimit + recvLimit;
  }

  /** The most send-queue operations (everything but receives) in flight at once. */
  int sendCapacity() {
    return sendLimit;
  }

  /** Reads, writes, flushes and sends posted and not yet completed. */
  int sendsInFlight() {
    return sendsInFlight;
  }

  boolean hasRoom(byte kind) {
    if (sendsInFlight + recvsInFlight >= sharedCqLimit) {
      return false;
    }
    return OpKind.isReceive(kind) ? recvsInFlight < recvLimit : sendsInFlight < sendLimit;
  }

  void acquire(byte kind) {
    if (OpKind.isReceive(kind)) {
      recvsInFlight++;
    } else {
      sendsInFlight++;
    }
  }

  void release(byte kind) {
    if (OpKind.isReceive(kind)) {
      recvsInFlight--;
    } else {
      sendsInFlight--;
    }
  }
}
