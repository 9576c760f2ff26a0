package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;

/** The engine's {@link LibrpmaConnection} over librpma: translation only, no decisions. */
public final class JniConnection implements LibrpmaConnection {

  private final long conn;
  private final int drainBatch;
  private JniCompletionQueue mainCq;
  private JniCompletionQueue recvCq;

  /** {@code drainBatch}: how many completions one native call may take (the buffer's size). */
  public JniConnection(long conn, int drainBatch) {
    this.conn = conn;
    this.drainBatch = drainBatch;
  }

  @Override
  public void post(byte kind, long l, long localOffset, long r, long remoteOffset, long length,
      long extra, long wrId) {
    int rc = switch (kind) {
      case OpKind.READ -> Native.read(conn, l, localOffset, r, remoteOffset, length, wrId);
      case OpKind.WRITE -> Native.write(conn, r, remoteOffset, l, localOffset, length, wrId);
      case OpKind.WRITE_WITH_IMM -> Native.writeWithImm(conn, r, remoteOffset, l, localOffset,
          length, (int) extra, wrId);
      case OpKind.ATOMIC_WRITE -> Native.atomicWrite(conn, r, remoteOffset, extra, wrId);
      case OpKind.FLUSH -> Native.flush(conn, r, remoteOffset, length, (int) extra, wrId);
      case OpKind.SEND -> Native.send(conn, l, localOffset, length, wrId);
      case OpKind.SEND_WITH_IMM -> Native.sendWithImm(conn, l, localOffset, length, (int) extra,
          wrId);
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
      return new IllegalStateException("flush(PERSISTENT) needs the remote peer's configuration:"
          + " the peer must state that its memory takes writes directly to persistence"
          + " (PeerConfig.create(true), its descriptor sent e.g. in private data) and this side"
          + " must call applyRemotePeerConfig(PeerConfig.fromDescriptor(bytes)) first", error);
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

  @Override
  public CmEvent nextEvent() {
    int event = Native.connNextEvent(conn);
    if (event < 0) {
      if (NativeError.isAgain(event)) {
        return CmEvent.NONE;
      }
      throw Errors.rpma("rpma_conn_next_event", event);
    }
    if (event == NativeConstants.RPMA_CONN_ESTABLISHED) {
      return CmEvent.ESTABLISHED;
    }
    if (event == NativeConstants.RPMA_CONN_CLOSED) {
      return CmEvent.CLOSED;
    }
    if (event == NativeConstants.RPMA_CONN_LOST) {
      return CmEvent.LOST;
    }
    if (event == NativeConstants.RPMA_CONN_REJECTED) {
      return CmEvent.REJECTED;
    }
    return event == NativeConstants.RPMA_CONN_UNREACHABLE ? CmEvent.UNREACHABLE
        : CmEvent.UNDEFINED;
  }

  @Override
  public byte[] privateData() {
    byte[] pdata = Native.connPrivateData(conn);
    return pdata == null ? new byte[0] : pdata;
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
