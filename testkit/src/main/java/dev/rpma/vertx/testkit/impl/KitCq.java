package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import java.util.ArrayDeque;

/**
 * A completion queue of the in-JVM device, with its channel as librpma's: armed when made, an
 * event (the fd readable) when a completion arrives while armed; waiting for the event
 * consumes it and arms again, so a completion that came meanwhile is found by the poll.
 */
final class KitCq implements CompletionSource {

  /** One work completion. */
  record Wc(long wrId, int status, int byteLength, boolean hasImm, int imm, int qpNum) {
  }

  private final KitDevice device;
  private final KitFd fd;
  private final ArrayDeque<Wc> wcs = new ArrayDeque<>();
  private boolean armed = true;
  private boolean event;

  KitCq(KitDevice device) {
    this.device = device;
    this.fd = device.newFd(this::hasEvent);
  }

  private boolean hasEvent() {
    synchronized (device) {
      return event;
    }
  }

  /** A completion arrives (under the device's faults: stalled or late, see {@link Faults}). */
  void add(Wc wc) {
    synchronized (device) {
      wcs.add(wc);
      if (armed) {
        armed = false;
        event = true;
      }
    }
    fd.poke();
  }

  @Override
  public int fd() {
    return fd.number();
  }

  @Override
  public int drain(boolean consumeEvent, int max, CompletionSink sink) {
    Wc[] polled = new Wc[Math.max(0, max)];
    int n = 0;
    synchronized (device) {
      if (consumeEvent) {
        event = false;
        armed = true;
      }
      while (n < max && !wcs.isEmpty()) {
        polled[n++] = wcs.poll();
      }
    }
    for (int i = 0; i < n; i++) {
      Wc wc = polled[i];
      sink.onCompletion(wc.wrId(), wc.status(), 0, wc.byteLength(), wc.hasImm(), wc.imm(),
          wc.qpNum());
    }
    return n;
  }

  void close() {
    device.closeFd(fd);
  }
}
