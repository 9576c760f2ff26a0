package dev.rpma.vertx.impl.seam;

/**
 * A connection request taken from an endpoint ({@link LibrpmaEndpoint#nextRequest()}): its
 * queue pair exists, not connected yet. Answered exactly once: {@link #connect} consumes it,
 * {@link #delete()} rejects it (its client's connect fails at once). Calls on the server's
 * event loop.
 */
public interface LibrpmaRequest {

  /** The private data its client sent with the connect; empty if none. */
  byte[] privateData();

  /** Posts a receive on its queue pair before the accept (rpma_conn_req_recv). */
  void postReceive(long localMr, long localOffset, long length, long wrId);

  /**
   * Accepts it (rpma_conn_req_connect), consuming it even when this fails: the connection, not
   * established yet. {@code drainBatch}: how many completions one poll of its CQs may take.
   */
  LibrpmaConnection connect(byte[] privateData, int drainBatch);

  /** Rejects it (rpma_conn_req_delete): its queue pair is freed, its client hears now. */
  void delete();
}
