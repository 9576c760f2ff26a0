package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;

/**
 * A shared receive queue of the in-JVM device: one receive queue and its CQ for every
 * connection attached; a completion names the queue pair its message came in on.
 */
final class KitSharedQueue implements LibrpmaSharedQueue {

  private final KitDevice device;
  private final long handle;
  private final KitCq cq;
  private final KitReceiveQueue receiveQueue;

  KitSharedQueue(KitDevice device) {
    this.device = device;
    this.handle = device.nextHandle();
    this.cq = new KitCq(device);
    this.receiveQueue = new KitReceiveQueue(cq);
  }

  long handle() {
    return handle;
  }

  KitReceiveQueue receiveQueue() {
    return receiveQueue;
  }

  @Override
  public void recv(long localMr, long offset, long length, long wrId) {
    synchronized (device) {
      KitRegion region = device.region(localMr);
      receiveQueue.receives.add(new KitReceiveQueue.Receive(region, offset, length, wrId));
      device.match(receiveQueue);
    }
  }

  @Override
  public CompletionSource receiveCq() {
    return cq;
  }

  @Override
  public String statusText(int status) {
    return WcStatus.text(status);
  }

  @Override
  public void delete() {
    device.removeSharedQueue(handle);
    cq.close();
  }
}
