package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.WcLayout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Drains one librpma CQ on its connection's event loop.
 *
 * <p>On readiness of the CQ's fd: consume the pending event, then poll, in one native call;
 * poll again while batches come back full. Completions are decoded from a direct buffer this
 * queue reuses for its whole life. After {@code budget} completions the loop is yielded to
 * its other I/O and the rest is drained at its next I/O phase ({@link DrainContinuation}):
 * leftover completions raise no new event, so they must not wait for one.
 */
public final class CompletionQueue {

  private final long cq;
  private final CompletionSink sink;
  private final ConnectionCounters counters;
  private final int batch;
  private final int budget;
  private final ByteBuffer wcs;
  private final long wcsAddress;
  private final Runnable continueLater;
  private boolean stopped;

  /** {@code continueLater}: asks for {@link #drainNow()} from the loop's next I/O phase. */
  public CompletionQueue(long cq, CompletionSink sink, ConnectionCounters counters, int batch,
      int budget, Runnable continueLater) {
    this.continueLater = continueLater;
    this.cq = cq;
    this.sink = sink;
    this.counters = counters;
    this.batch = batch;
    this.budget = budget;
    this.wcs = ByteBuffer.allocateDirect(batch * WcLayout.SIZE).order(ByteOrder.nativeOrder());
    this.wcsAddress = Native.directBufferAddress(wcs);
  }

  /** The CQ's own fd became readable: consume its event, then drain. */
  public void onReadable() {
    counters.wakeups++;
    drain(true);
  }

  /** Drain without consuming events (shared channel: the connection consumed them). */
  public void drainNow() {
    drain(false);
  }

  /** No more draining, also not from a queued continuation. */
  public void stop() {
    stopped = true;
  }

  private void drain(boolean waitFirst) {
    int left = budget;
    boolean wait = waitFirst;
    while (!stopped) {
      int n = Native.cqDrain(cq, wcsAddress, batch, wait);
      wait = false;
      if (n < 0) {
        sink.onCompletionQueueFailure(Errors.rpma("rpma_cq_wait/rpma_cq_get_wc", n));
        return;
      }
      if (n > 0) {
        counters.drainCalls++;
        counters.completions += n;
        deliver(n);
      }
      if (n < batch) {
        return; // the CQ is empty; the CQ was re-armed before this poll
      }
      left -= n;
      if (left <= 0) {
        continueLater.run(); // yield the loop to its other I/O, then go on
        return;
      }
    }
  }

  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  /** imm_data is big-endian (network order) in the wc, as librpma posted it. */
  private static int hostOrder(int imm) {
    return LITTLE_ENDIAN ? Integer.reverseBytes(imm) : imm;
  }

  private void deliver(int n) {
    for (int i = 0, base = 0; i < n; i++, base += WcLayout.SIZE) {
      int flags = wcs.getInt(base + WcLayout.WC_FLAGS);
      boolean hasImm = (flags & WcLayout.WITH_IMM) != 0;
      sink.onCompletion(
          wcs.getLong(base + WcLayout.WR_ID),
          wcs.getInt(base + WcLayout.STATUS),
          wcs.getInt(base + WcLayout.VENDOR_ERR),
          wcs.getInt(base + WcLayout.BYTE_LEN),
          hasImm,
          hasImm ? hostOrder(wcs.getInt(base + WcLayout.IMM_DATA)) : 0);
    }
  }
}
