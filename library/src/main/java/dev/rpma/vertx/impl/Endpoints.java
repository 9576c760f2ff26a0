package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.JniEndpoint;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeError;
import dev.rpma.vertx.impl.jni.RpmaLog;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaException;

/** Checks of address, port and options, and the librpma connection configuration from them. */
public final class Endpoints {

  private Endpoints() {
  }

  /**
   * Null if valid; else what is wrong. The options' queues must fit {@code device} (for a
   * server: its accepted connections' queues).
   */
  static String check(String address, int port, ConnectionOptions options,
      DeviceLimits device) {
    String invalid = AddressCheck.check("address", address);
    if (invalid != null) {
      return invalid;
    }
    if (port < 1 || port > 65535) {
      return "port must be in [1, 65535], got " + port;
    }
    if (options == null) {
      return "options must not be null";
    }
    return device.checkQueues(options);
  }

  /** As {@link #check}, for a listener: port 0 is a free port the library picks (FreePorts). */
  static String checkListen(String address, int port, ConnectionOptions options,
      DeviceLimits device) {
    return check(address, port == 0 ? 1 : port, options, device);
  }

  /**
   * rpma_conn_req_new then rpma_conn_req_connect on peer {@code peer}, the queue pair attached
   * to shared receive queue {@code srq} (0 for none): the librpma connection, not established
   * yet; a failure names the limit it met (ConnectionLimits). Blocks: on a worker, inside
   * {@code PeerImpl.blocking}.
   */
  static long requestConnection(long peer, DeviceLimits device, String address, int port,
      ConnectionOptions options, byte[] privateData, long srq) {
    return requestConnection(peer, device, address, port, options, privateData, srq, null);
  }

  /**
   * The same for {@code attempt}: resolution bounded by its timeout, a failed resolution said
   * as its unreachable (null: the options' timeoutMs, failures as they are).
   */
  static long requestConnection(long peer, DeviceLimits device, String address, int port,
      ConnectionOptions options, byte[] privateData, long srq, ConnectAttempt attempt) {
    long cfg = Errors.check("rpma_conn_cfg_new", newConnCfg(options, srq,
        attempt != null ? attempt.resolveTimeoutMs(System.nanoTime()) : options.getTimeoutMs()));
    try {
      RpmaLog.takeLastError(); // what an earlier call on this worker left
      long req = Native.connReqNew(peer, address, String.valueOf(port), cfg);
      if (NativeError.isError(req)) {
        RpmaException e = Errors.rpma("rpma_conn_req_new", req);
        String librpmaError = RpmaLog.takeLastError();
        if (attempt != null) {
          RuntimeException unreachable = attempt.resolutionFailed(e, librpmaError);
          if (unreachable != e) {
            throw unreachable;
          }
        }
        throw ConnectionLimits.setUpFailed(e, "cannot connect", device, options);
      }
      long conn = Native.connReqConnect(req, privateData);
      if (NativeError.isError(conn)) {
        throw ConnectionLimits.setUpFailed(Errors.rpma("rpma_conn_req_connect", conn),
            "cannot connect", device, options);
      }
      return conn;
    } finally {
      Native.connCfgDelete(cfg);
    }
  }

  /**
   * rpma_ep_listen, with the fix named when the port is taken: the endpoint and its port (a
   * free one the library picks for port 0), its requests' queue pairs configured by
   * {@code options} and attached to shared receive queue {@code srq} (0 for none). Blocks: on a
   * worker, inside {@code PeerImpl.blocking}.
   */
  static FreePorts.Bound listen(long peer, String address, int port, ConnectionOptions options,
      long srq) {
    return port == 0 ? FreePorts.listen(address, p -> listenOn(peer, address, p, options, srq))
        : new FreePorts.Bound(listenOn(peer, address, port, options, srq), port);
  }

  private static LibrpmaEndpoint listenOn(long peer, String address, int port,
      ConnectionOptions options, long srq) {
    try {
      return JniEndpoint.listen(peer, address, port, newConnCfg(options, srq));
    } catch (RpmaException e) {
      throw CauseHints.listen(e, address, port);
    }
  }

  /** A librpma conn cfg for the options; the caller deletes it. */
  public static long newConnCfg(ConnectionOptions o) {
    return newConnCfg(o, 0);
  }

  /** The same, with a shared receive queue ({@code srq}, 0 for none); or an encoded error. */
  public static long newConnCfg(ConnectionOptions o, long srq) {
    return newConnCfg(o, srq, o.getTimeoutMs());
  }

  /** The same, librpma's timeout (of a connect's address and route resolution) given. */
  static long newConnCfg(ConnectionOptions o, long srq, int timeoutMs) {
    long cfg = Native.connCfgNew(timeoutMs, o.getCqSize(), o.getRcqSize(), o.getSqSize(),
        o.getRqSize(), o.isSharedCompletionChannel());
    if (srq == 0 || NativeError.isError(cfg)) {
      return cfg;
    }
    int rc = Native.connCfgSetSrq(cfg, srq);
    if (rc < 0) {
      Native.connCfgDelete(cfg);
      return rc;
    }
    return cfg;
  }
}
