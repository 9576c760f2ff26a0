package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;

/** The engine's {@link LibrpmaSharedQueue} over librpma: translation only, no decisions. */
public final class JniSharedQueue implements LibrpmaSharedQueue {

  private final long srq;
  private final int drainBatch;
  private JniCompletionQueue rcq;

  /** {@code drainBatch}: how many completions one native call may take (the buffer's size). */
  public JniSharedQueue(long srq, int drainBatch) {
    this.srq = srq;
    this.drainBatch = drainBatch;
  }

  /**
   * rpma_srq_new on {@code peer}: a queue of {@code rqSize} receives with a receive CQ of
   * {@code rcqSize}; throws librpma's error. Blocks: on a worker.
   */
  public static JniSharedQueue create(long peer, int rqSize, int rcqSize, int drainBatch) {
    return new JniSharedQueue(Errors.check("rpma_srq_new", Native.srqNew(peer, rqSize, rcqSize)),
        drainBatch);
  }

  /** The librpma handle, for a connection configuration (rpma_conn_cfg_set_srq). */
  public long handle() {
    return srq;
  }

  @Override
  public void recv(long localMr, long offset, long length, long wrId) {
    int rc = Native.srqRecv(srq, localMr, offset, length, wrId);
    if (rc < 0) {
      throw Errors.rpma("rpma_srq_recv", rc);
    }
  }

  @Override
  public CompletionSource receiveCq() {
    if (rcq == null) {
      long cq = Errors.check("rpma_srq_get_rcq", Native.srqRcq(srq));
      if (cq == 0) {
        throw new IllegalStateException("the shared receive queue has no receive CQ");
      }
      rcq = new JniCompletionQueue(cq, drainBatch);
    }
    return rcq;
  }

  @Override
  public String statusText(int status) {
    return Native.wcStatusString(status);
  }

  @Override
  public void delete() {
    Errors.check("rpma_srq_delete", Native.srqDelete(srq));
  }
}
