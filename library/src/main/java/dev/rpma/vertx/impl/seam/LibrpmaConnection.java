package dev.rpma.vertx.impl.seam;

/**
 * A librpma connection as the engine sees it: the one seam between the engine and the natives.
 * {@code impl.jni.JniConnection} calls librpma; the host tests drive the engine with a fake.
 *
 * <p>Every call is made on the connection's event loop, except {@link #delete()}, which may
 * block and runs on a worker. Failures are thrown ({@code RpmaException}, or an
 * {@code IllegalStateException} whose message says the fix); "nothing pending" is not a
 * failure.
 */
public interface LibrpmaConnection {

  /**
   * Posts one operation ({@link OpKind}) with the given wr_id: {@code signalled}, with
   * RPMA_F_COMPLETION_ALWAYS; else (selective signalling, send-queue kinds only) with
   * RPMA_F_COMPLETION_ON_ERROR: the device reports it only if it fails, and the engine completes
   * it with the next signalled operation of the queue pair. {@code extra} is the immediate
   * data, the atomic value or the flush type, by kind.
   */
  void post(byte kind, long localMr, long localOffset, long remoteMr, long remoteOffset,
      long length, long extra, long wrId, boolean signalled);

  /** Its queue pair's number (rpma_conn_get_qp_num): how a shared queue's messages find it. */
  int qpNum();

  /** The fd of the connection's CM events. */
  int eventFd();

  /** The next CM event, {@link CmEvent#NONE} if none is pending. */
  CmEvent nextEvent();

  /**
   * The RDMA CM's status of the event {@link #nextEvent()} returned last: for REJECTED the
   * reject reason (IB CM: 8 nobody listens on the port, 28 the application rejected), for
   * UNREACHABLE a negative errno; 0 when none is known.
   */
  default int eventStatus() {
    return 0;
  }

  /** The private data the other side sent with its connect or accept; empty if none. */
  byte[] privateData();

  /** Applies a peer configuration, given as its descriptor (rpma_conn_apply_remote_peer_cfg). */
  void applyRemotePeerConfig(byte[] peerCfgDescriptor);

  /** The main CQ. */
  CompletionSource mainCq();

  /** The receive CQ, or null if the connection has none (receives complete on the main CQ). */
  CompletionSource recvCq();

  /** The shared completion channel's fd (rpma_conn_get_compl_fd); only if it was configured. */
  int sharedChannelFd();

  /** Consumes the shared channel's pending event (rpma_conn_wait). */
  void waitSharedChannel();

  /** Starts disconnecting (rpma_conn_disconnect); false if librpma refused. */
  boolean disconnect();

  /** ibv_wc_status_str of a completion status, for messages. */
  String statusText(int status);

  /** Deletes the connection and closes its fds (rpma_conn_delete). May block: a worker only. */
  void delete();
}
