package dev.rpma.vertx.impl.seam;

/**
 * A librpma shared receive queue as {@code impl.engine.SharedQueueEngine} sees it: the seam beside
 * {@link LibrpmaConnection}. {@code impl.jni.JniSharedQueue} calls librpma; the host tests
 * drive the engine with a fake.
 *
 * <p>Every call on the queue's event loop, except {@link #delete()} (a worker).
 */
public interface LibrpmaSharedQueue {

  /** Posts one receive (rpma_srq_recv) with this wr_id; throws if librpma refuses. */
  void recv(long localMr, long offset, long length, long wrId);

  /** The queue's own receive CQ, where the receives of every attached connection complete. */
  CompletionSource receiveCq();

  /** ibv_wc_status_str of a completion status, for messages. */
  String statusText(int status);

  /** Deletes the queue, its CQ and its channel (rpma_srq_delete). May block: a worker only. */
  void delete();
}
