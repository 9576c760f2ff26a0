package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectStep;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnectException;
import dev.rpma.vertx.RpmaConnectionRejectedException;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.RpmaNothingListensException;
import dev.rpma.vertx.RpmaUnreachableException;
import dev.rpma.vertx.impl.engine.CloseReason;
import dev.rpma.vertx.impl.engine.ConnectionEndedException;
import dev.rpma.vertx.impl.jni.NativeConstants;
import java.util.concurrent.TimeUnit;

/**
 * One client connect: its one deadline ({@code connectTimeoutMs} bounds the whole connect,
 * resolution included: librpma's resolution timeout is set to it, and the engine waits for
 * ESTABLISHED only for what is left), and its failures said as a user can act on them: which
 * address, which step, which option, and a type per cause.
 *
 * <p>How the causes are told apart: librpma reports a failed resolution as a provider error
 * whose errno does not name the step, so the step comes from the call librpma logged as
 * failing (rdma_resolve_addr, rdma_resolve_route). A rejected request comes with the RDMA
 * CM's reject reason (read beside librpma, see JniConnection#nextEvent): the remote CM itself
 * rejects a request for a port nobody listens on, the application's reject is the consumer's.
 */
public final class ConnectAttempt {

  static final String OPTION = "connectTimeoutMs";
  /** IBTA CM reject reasons (the REJ message's reason field). */
  static final int REJ_INVALID_SERVICE_ID = 8;
  static final int REJ_CONSUMER_DEFINED = 28;

  private final String host;
  private final int port;
  private final int timeoutMs;
  private final long startedNanos;

  ConnectAttempt(String host, int port, ConnectionOptions options) {
    this(host, port, options, System.nanoTime());
  }

  ConnectAttempt(String host, int port, ConnectionOptions options, long startedNanos) {
    this.host = host;
    this.port = port;
    this.timeoutMs = options.getConnectTimeoutMs();
    this.startedNanos = startedNanos;
  }

  /**
   * librpma's timeout of resolution when it starts at {@code nowNanos}: what is left of the
   * connect's (the wait for the peer's set-up worker counts). librpma gives it to each of
   * address and route resolution; route resolution is local and quick on RoCE.
   */
  int resolveTimeoutMs(long nowNanos) {
    return left(nowNanos);
  }

  /** The options the engine gets: {@code connectTimeoutMs} is what resolution left. */
  ConnectionOptions afterResolution(ConnectionOptions options, long nowNanos) {
    return new ConnectionOptions(options).setConnectTimeoutMs(left(nowNanos));
  }

  private int left(long nowNanos) {
    long spent = TimeUnit.NANOSECONDS.toMillis(nowNanos - startedNanos);
    return (int) Math.max(1, timeoutMs - spent);
  }

  private String where(ConnectStep step) {
    return "connect to " + host + ":" + port + " failed at step '" + step + "': ";
  }

  /**
   * A failed rpma_conn_req_new: unreachable at the step librpma logged as failing
   * ({@code librpmaError}, its last error on this thread), else {@code e} as it is.
   */
  RuntimeException resolutionFailed(RpmaException e, String librpmaError) {
    ConnectStep step = librpmaError == null ? null
        : librpmaError.contains("rdma_resolve_route") ? ConnectStep.RESOLVE_ROUTE
        : librpmaError.contains("rdma_resolve_addr") || librpmaError.contains("rdma_getaddrinfo")
            ? ConnectStep.RESOLVE_ADDRESS : null;
    if (step == null) {
      return e;
    }
    String what = step == ConnectStep.RESOLVE_ROUTE ? "no route to " + host
        : host + " was not resolved to a host on an RDMA device's network";
    String why = e.errno() == NativeConstants.ETIMEDOUT
        ? what + " within " + timeoutMs + " ms (" + OPTION + ", which bounds the whole"
            + " connect). Is the host up, on the subnet of a local RDMA interface or routed"
            + " from it? Raise " + OPTION + " for a slow network"
        : what + " (" + e.getMessage() + "; librpma: " + librpmaError + ")";
    return new RpmaUnreachableException(where(step) + why, host, port, step, OPTION, e);
  }

  /** What the connect's Future fails with, from what its set-up or its engine failed with. */
  Throwable failed(Throwable e) {
    if (!(e instanceof ConnectionEndedException ended)) {
      return e;
    }
    CloseReason reason = ended.reason();
    int status = ended.eventStatus();
    if (reason == CloseReason.REJECTED_BY_PEER && status == REJ_INVALID_SERVICE_ID) {
      return new RpmaNothingListensException(where(ConnectStep.ESTABLISH) + "nothing listens"
          + " on port " + port + " at " + host + " (its RDMA CM rejected the request: reason "
          + status + ", invalid service ID). Start the server first, or check the address and"
          + " port; a client that may start before its server retries", host, port, OPTION);
    }
    if (reason == CloseReason.REJECTED_BY_PEER && status == REJ_CONSUMER_DEFINED) {
      return new RpmaConnectionRejectedException(where(ConnectStep.ESTABLISH) + "the"
          + " application at " + host + ":" + port + " rejected the request (its request"
          + " handler called reject(), or its server closed before answering)", host, port,
          OPTION);
    }
    if (reason == CloseReason.REJECTED_BY_PEER) {
      return new RpmaConnectException(where(ConnectStep.ESTABLISH) + "the RDMA CM at " + host
          + " rejected the request (reject reason " + status + ")", host, port,
          ConnectStep.ESTABLISH, OPTION, e);
    }
    if (reason == CloseReason.UNREACHABLE) {
      return new RpmaUnreachableException(where(ConnectStep.ESTABLISH) + host + " did not"
          + " answer the connect request (RDMA CM unreachable, status " + status + "): is its"
          + " host up, with an RDMA device (e.g. Soft-RoCE) on that address?", host, port,
          ConnectStep.ESTABLISH, OPTION, e);
    }
    if (reason == CloseReason.NOT_ESTABLISHED) {
      return new RpmaUnreachableException(where(ConnectStep.ESTABLISH) + "not established"
          + " within " + timeoutMs + " ms (" + OPTION + ", which bounds the whole connect,"
          + " resolution included): the server did not answer in time; raise " + OPTION
          + " if it is slow to accept", host, port, ConnectStep.ESTABLISH, OPTION, e);
    }
    if (reason == CloseReason.LOST || reason == CloseReason.OTHER_EVENT) {
      return new RpmaConnectException(where(ConnectStep.ESTABLISH) + e.getMessage(), host,
          port, ConnectStep.ESTABLISH, OPTION, e);
    }
    return e;
  }
}
