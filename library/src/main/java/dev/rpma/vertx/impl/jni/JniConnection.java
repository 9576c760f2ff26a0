package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.DeviceRefusals;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import java.util.Arrays;

/** The engine's {@link LibrpmaConnection} over librpma: translation only, no decisions. */
public final class JniConnection implements LibrpmaConnection {

  private static final int ALWAYS = NativeConstants.RPMA_F_COMPLETION_ALWAYS;
  private static final int ON_ERROR = NativeConstants.RPMA_F_COMPLETION_ON_ERROR;

  private final long conn;
  private final int drainBatch;
  private JniCompletionQueue mainCq;
  private JniCompletionQueue recvCq;
  /** Where the native call copies an event's private data (the RDMA CM's at most 196). */
  private final byte[] eventPrivateData = new byte[255];
  private byte[] establishedPrivateData;
  private int eventStatus;

  /** {@code drainBatch}: how many completions one native call may take (the buffer's size). */
  public JniConnection(long conn, int drainBatch) {
    this.conn = conn;
    this.drainBatch = drainBatch;
  }

  @Override
  public void post(byte kind, long l, long localOffset, long r, long remoteOffset, long length,
      long extra, long wrId, boolean signalled) {
    int f = signalled ? ALWAYS : ON_ERROR;
    int rc = switch (kind) {
      case OpKind.READ -> Native.read(conn, l, localOffset, r, remoteOffset, length, f, wrId);
      case OpKind.WRITE -> Native.write(conn, r, remoteOffset, l, localOffset, length, f, wrId);
      case OpKind.WRITE_WITH_IMM -> Native.writeWithImm(conn, r, remoteOffset, l, localOffset,
          length, (int) extra, f, wrId);
      case OpKind.ATOMIC_WRITE -> Native.atomicWrite(conn, r, remoteOffset, extra, f, wrId);
      case OpKind.FLUSH -> Native.flush(conn, r, remoteOffset, length, (int) extra, f, wrId);
      case OpKind.SEND -> Native.send(conn, l, localOffset, length, f, wrId);
      case OpKind.SEND_WITH_IMM -> Native.sendWithImm(conn, l, localOffset, length, (int) extra,
          f, wrId);
      case OpKind.RECV -> Native.recv(conn, l, localOffset, length, wrId);
      default -> throw new IllegalStateException("unknown operation " + kind);
    };
    if (rc < 0) {
      throw postError(kind, rc);
    }
  }

  private static RuntimeException postError(byte kind, int rc) {
    RuntimeException error = Errors.rpma(OpKind.call(kind), rc);
    if (kind == OpKind.FLUSH && NativeError.code(rc) == NativeError.RPMA_E_NOSUPP) {
      // the only flush librpma refuses after our checks: persistent, without the peer's word
      return DeviceRefusals.persistentFlushWithoutPeerConfig(error);
    }
    return error;
  }

  @Override
  public int qpNum() {
    return (int) Errors.check("rpma_conn_get_qp_num", Native.connQpNum(conn));
  }

  @Override
  public int eventFd() {
    return (int) Errors.check("rpma_conn_get_event_fd", Native.connEventFd(conn));
  }

  /**
   * Read with librdmacm on librpma's event channel (rpma_jni_cm.c), not rpma_conn_next_event,
   * which drops the status that tells "nobody listens" from "the application rejected".
   * librpma's mapping of the events is kept.
   */
  @Override
  public CmEvent nextEvent() {
    long packed = Native.connNextCmEvent(conn, eventPrivateData);
    if (packed < 0) {
      if (NativeError.isAgain(packed)) {
        return CmEvent.NONE;
      }
      throw Errors.rpma("rdma_get_cm_event", packed);
    }
    int type = (int) (packed >>> 40) & 0xff;
    int pdataLength = (int) (packed >>> 32) & 0xff;
    eventStatus = (int) packed;
    if (type == NativeConstants.RDMA_CM_EVENT_ESTABLISHED) {
      if (establishedPrivateData == null) {
        establishedPrivateData = Arrays.copyOf(eventPrivateData, pdataLength);
      }
      return CmEvent.ESTABLISHED;
    }
    if (type == NativeConstants.RDMA_CM_EVENT_CONNECT_ERROR
        || type == NativeConstants.RDMA_CM_EVENT_DEVICE_REMOVAL) {
      return CmEvent.LOST;
    }
    if (type == NativeConstants.RDMA_CM_EVENT_DISCONNECTED
        || type == NativeConstants.RDMA_CM_EVENT_TIMEWAIT_EXIT) {
      return CmEvent.CLOSED;
    }
    if (type == NativeConstants.RDMA_CM_EVENT_REJECTED) {
      return CmEvent.REJECTED;
    }
    return type == NativeConstants.RDMA_CM_EVENT_UNREACHABLE ? CmEvent.UNREACHABLE
        : CmEvent.UNDEFINED;
  }

  @Override
  public int eventStatus() {
    return eventStatus;
  }

  /**
   * librpma's (a server's: the request's), else the ESTABLISHED event's (a client's), as
   * rpma_conn_next_event would have kept it.
   */
  @Override
  public byte[] privateData() {
    byte[] pdata = Native.connPrivateData(conn);
    if (pdata != null && pdata.length > 0) {
      return pdata;
    }
    return establishedPrivateData != null ? establishedPrivateData.clone() : new byte[0];
  }

  @Override
  public void applyRemotePeerConfig(byte[] descriptor) {
    long pcfg = Errors.check("rpma_peer_cfg_from_descriptor",
        Native.peerCfgFromDescriptor(descriptor));
    try {
      int rc = Native.connApplyRemotePeerCfg(conn, pcfg);
      if (rc < 0) {
        throw Errors.rpma("rpma_conn_apply_remote_peer_cfg", rc);
      }
    } finally {
      Native.peerCfgDelete(pcfg);
    }
  }

  @Override
  public CompletionSource mainCq() {
    if (mainCq == null) {
      mainCq = new JniCompletionQueue(Errors.check("rpma_conn_get_cq", Native.connCq(conn)),
          drainBatch);
    }
    return mainCq;
  }

  @Override
  public CompletionSource recvCq() {
    if (recvCq == null) {
      long rcq = Errors.check("rpma_conn_get_rcq", Native.connRcq(conn));
      recvCq = rcq != 0 ? new JniCompletionQueue(rcq, drainBatch) : null;
    }
    return recvCq;
  }

  @Override
  public int sharedChannelFd() {
    return (int) Errors.check("rpma_conn_get_compl_fd", Native.connComplFd(conn));
  }

  @Override
  public void waitSharedChannel() {
    int which = Native.connWaitAll(conn);
    if (which < 0) {
      throw Errors.rpma("rpma_conn_wait", which);
    }
  }

  @Override
  public boolean disconnect() {
    return Native.connDisconnect(conn) == 0;
  }

  @Override
  public String statusText(int status) {
    return Native.wcStatusString(status);
  }

  @Override
  public void delete() {
    Errors.check("rpma_conn_delete", Native.connDelete(conn));
  }
}
