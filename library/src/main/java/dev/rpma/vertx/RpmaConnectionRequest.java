package dev.rpma.vertx;

import io.vertx.core.Future;
import io.vertx.core.net.SocketAddress;

/**
 * An incoming connection, waiting for the server's answer. Answer it exactly once.
 *
 * @since 0.1.0
 */
public interface RpmaConnectionRequest {

  /**
   * The bytes the client sent with its request, as the RDMA CM delivers them: over RoCE and
   * InfiniBand always {@link RpmaConnection#MAX_CONNECT_PRIVATE_DATA} (56) bytes, what the
   * client sent followed by zeros; a client that sent none gives 56 zero bytes, not an empty
   * array (the CM's request carries no length). So use a self-delimiting format that zeros do
   * not start, or {@link PrivateData#frame}; {@link RegionOffer#fromBytes} says "the peer sent
   * no private data" for all zeros.
   *
   * @return the bytes as received
   */
  byte[] privateData();

  /**
   * Where the request arrived: the server's host and {@link RpmaServer#actualPort()}.
   *
   * @return the server's address
   */
  SocketAddress localAddress();

  /**
   * Where the request came from: null. librpma (1.2) keeps the request's rdma_cm id to itself
   * and gives no QP number of a request by which the kernel's CM id table could be read; the
   * accepted connection's {@link RpmaConnection#remoteAddress()} has it. A client that must be
   * known before the accept can say who it is in its private data.
   *
   * @return null
   */
  SocketAddress remoteAddress();

  /**
   * Posts a receive before the connection exists ({@code rpma_conn_req_recv}), so that a client
   * that sends as soon as it is connected finds it already there. Call before {@link #accept};
   * the Future completes like {@link RpmaConnection#recv}'s, on the server's context. At most
   * the connection's rqSize receives; if the request is rejected, they fail.
   *
   * @param dst the local region, registered for {@link MemoryUsage#RECV}
   * @param offset where a message is written in {@code dst}
   * @param length the most bytes a message may have
   * @return a Future completed with what arrived
   */
  Future<Received> recv(MemoryRegion dst, long offset, long length);

  /**
   * Accepts; the Future completes when the connection is established, on the server's context.
   *
   * @param privateData bytes for the client, e.g. a region's descriptor (at most
   *     {@link RpmaConnection#MAX_ACCEPT_PRIVATE_DATA}); null or empty for none
   * @return a Future completed with the established connection
   */
  Future<RpmaConnection> accept(byte[] privateData);

  /** Rejects: the client's connect fails. */
  void reject();
}
