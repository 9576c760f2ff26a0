package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;

/** The server engine's {@link LibrpmaEndpoint} over librpma: translation only, no decisions. */
public final class JniEndpoint implements LibrpmaEndpoint {

  private final long ep;
  /** The configuration of the queue pairs of its requests; deleted at shutdown. */
  private final long connCfg;

  private JniEndpoint(long ep, long connCfg) {
    this.ep = ep;
    this.connCfg = connCfg;
  }

  /**
   * rpma_ep_listen, then the endpoint with {@code connCfg} (a handle, or an encoded error: then
   * the endpoint is shut down again and the error thrown). Blocks: on a worker.
   */
  public static JniEndpoint listen(long peer, String address, int port, long connCfg) {
    if (NativeError.isError(connCfg)) {
      throw Errors.rpma("rpma_conn_cfg_new", connCfg);
    }
    long ep = Native.epListen(peer, address, String.valueOf(port));
    if (NativeError.isError(ep)) {
      Native.connCfgDelete(connCfg);
      throw Errors.rpma("rpma_ep_listen", ep);
    }
    return new JniEndpoint(ep, connCfg);
  }

  @Override
  public int fd() {
    return (int) Errors.check("rpma_ep_get_fd", Native.epFd(ep));
  }

  @Override
  public LibrpmaRequest nextRequest() {
    long req = Native.epNextConnReq(ep, connCfg);
    if (!NativeError.isError(req)) {
      return new JniRequest(req);
    }
    if (NativeError.isAgain(req)) {
      return null;
    }
    RuntimeException error = Errors.rpma("rpma_ep_next_conn_req", req);
    throw NativeError.code(req) == NativeError.RPMA_E_INVAL ? new NotARequest(error) : error;
  }

  @Override
  public void shutdown() {
    Native.connCfgDelete(connCfg);
    Errors.check("rpma_ep_shutdown", Native.epShutdown(ep));
  }

  /** A request over librpma. */
  private static final class JniRequest implements LibrpmaRequest {
    private final long req;

    JniRequest(long req) {
      this.req = req;
    }

    @Override
    public byte[] privateData() {
      byte[] pdata = Native.connReqPrivateData(req);
      return pdata == null ? new byte[0] : pdata;
    }

    @Override
    public void postReceive(long localMr, long localOffset, long length, long wrId) {
      int rc = Native.connReqRecv(req, localMr, localOffset, length, wrId);
      if (rc < 0) {
        throw Errors.rpma("rpma_conn_req_recv", rc);
      }
    }

    @Override
    public JniConnection connect(byte[] privateData, int drainBatch) {
      return new JniConnection(Errors.check("rpma_conn_req_connect",
          Native.connReqConnect(req, privateData)), drainBatch);
    }

    @Override
    public void delete() {
      Native.connReqDelete(req);
    }
  }
}
