package dev.rpma.vertx.impl;

import io.vertx.core.net.SocketAddress;
import java.util.function.IntSupplier;

/**
 * A connection's two ends. librpma keeps its rdma_cm id, and with it both addresses: they are
 * read from the kernel's CM id table (CmIdTable) by the connection's local QP number, once, on
 * first use; where that table cannot be had (a kernel without it, no fd left, the connection
 * gone), what the library knew anyway: a client's server as connected to and its peer's
 * address with port 0, a server side's listener and no client (null).
 */
final class ConnectionEnds {

  /** A local and a remote address. */
  record Pair(SocketAddress local, SocketAddress remote) {
  }

  private final Pair known;
  private final int deviceIndex;
  private volatile int qpNum = -1;
  private volatile Pair read;

  private ConnectionEnds(Pair known, int deviceIndex) {
    this.known = known;
    this.deviceIndex = deviceIndex;
  }

  /** A client's: its peer's address (the source port unknown: 0), the server it reached. */
  static ConnectionEnds client(int deviceIndex, String localAddress, String host, int port) {
    return new ConnectionEnds(new Pair(SocketAddress.inetSocketAddress(0, localAddress),
        SocketAddress.inetSocketAddress(port, host)), deviceIndex);
  }

  /** A server's side of a connection: its listener's address, the client unknown. */
  static ConnectionEnds accepted(int deviceIndex, SocketAddress listener) {
    return new ConnectionEnds(new Pair(listener, null), deviceIndex);
  }

  /**
   * The connection's queue pair exists: its ends can be read from now on, by its number. Its
   * number not to be had (rpma_conn_get_qp_num fails only for a NULL argument) leaves the ends
   * the library knew: no reason to fail a connection that works.
   */
  void started(IntSupplier qpNum) {
    try {
      this.qpNum = qpNum.getAsInt();
    } catch (RuntimeException e) {
      this.qpNum = -1;
    }
  }

  SocketAddress local() {
    return ends().local();
  }

  SocketAddress remote() {
    return ends().remote();
  }

  private Pair ends() {
    Pair ends = read;
    if (ends == null) {
      Pair found = qpNum < 0 ? null : CmIdTable.lookup(deviceIndex, qpNum);
      ends = found != null ? found : known;
      read = ends;
    }
    return ends;
  }
}
