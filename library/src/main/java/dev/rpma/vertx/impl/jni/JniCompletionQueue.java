package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A librpma CQ: one native call per batch (wait, then poll into a direct buffer this queue
 * reuses for its whole life), decoded by the offsets C reported ({@link WcLayout}). Nothing is
 * allocated per completion.
 */
final class JniCompletionQueue implements CompletionSource {

  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private final long cq;
  private final int fd;
  private final ByteBuffer wcs;
  private final long wcsAddress;
  private final int capacity;

  JniCompletionQueue(long cq, int batch) {
    this.cq = cq;
    this.fd = (int) Errors.check("rpma_cq_get_fd", Native.cqFd(cq));
    this.wcs = ByteBuffer.allocateDirect(batch * WcLayout.SIZE).order(ByteOrder.nativeOrder());
    this.wcsAddress = Native.directBufferAddress(wcs);
    this.capacity = batch;
  }

  @Override
  public int fd() {
    return fd;
  }

  @Override
  public int drain(boolean consumeEvent, int max, CompletionSink sink) {
    int n = Native.cqDrain(cq, wcsAddress, Math.min(max, capacity), consumeEvent);
    if (n < 0) {
      throw Errors.rpma("rpma_cq_wait/rpma_cq_get_wc", n);
    }
    for (int i = 0, base = 0; i < n; i++, base += WcLayout.SIZE) {
      int flags = wcs.getInt(base + WcLayout.WC_FLAGS);
      boolean hasImm = (flags & WcLayout.WITH_IMM) != 0;
      sink.onCompletion(
          wcs.getLong(base + WcLayout.WR_ID),
          wcs.getInt(base + WcLayout.STATUS),
          wcs.getInt(base + WcLayout.VENDOR_ERR),
          wcs.getInt(base + WcLayout.BYTE_LEN),
          hasImm,
          hasImm ? hostOrder(wcs.getInt(base + WcLayout.IMM_DATA)) : 0,
          wcs.getInt(base + WcLayout.QP_NUM));
    }
    return n;
  }

  /** imm_data is big-endian (network order) in the wc, as librpma posted it. */
  private static int hostOrder(int imm) {
    return LITTLE_ENDIAN ? Integer.reverseBytes(imm) : imm;
  }
}
