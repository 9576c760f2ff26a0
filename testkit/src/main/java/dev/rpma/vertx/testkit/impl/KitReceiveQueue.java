package dev.rpma.vertx.testkit.impl;

import java.util.ArrayDeque;

/**
 * A receive queue of the in-JVM device (a connection's own or a shared one): the receives
 * posted, and the sends that found none and wait for one, as the device's receiver-not-ready
 * retries do (librpma asks for unlimited RNR retries: a send waits until a receive is posted).
 * Guarded by the device's lock.
 */
final class KitReceiveQueue {

  /** A posted receive. */
  record Receive(KitRegion region, long offset, long length, long wrId) {
  }

  /** A send (or a write with immediate data, {@code data} empty) waiting for a receive. */
  record Send(KitConnection from, KitConnection to, byte[] data, boolean hasImm, int imm,
      long wrId) {
  }

  final ArrayDeque<Receive> receives = new ArrayDeque<>();
  final ArrayDeque<Send> waiting = new ArrayDeque<>();
  private final KitCq cq;

  KitReceiveQueue(KitCq cq) {
    this.cq = cq;
  }

  /** Where its receives complete. */
  KitCq cq() {
    return cq;
  }
}
