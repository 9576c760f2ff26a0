package dev.rpma.vertx;

import dev.rpma.vertx.impl.PeerImpl;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * The local RDMA device that serves an address, opened for librpma (a protection domain): the
 * factory of memory regions, servers and connections.
 *
 * <p>Set-up calls that can block (device lookup, registration, listen, connect) run on Vert.x
 * worker threads; every returned Future completes on the caller's context. Closing a peer
 * closes what it made.
 */
public interface RpmaPeer {

  /**
   * Opens the RDMA device that serves {@code address} (an IP address of a local RDMA-capable
   * interface). Fails with a clear error when no RDMA device serves it, or when Vert.x does not
   * run on native epoll.
   */
  static Future<RpmaPeer> open(Vertx vertx, String address) {
    return PeerImpl.open(vertx, address);
  }

  /** The address this peer was opened for. */
  String address();

  /** The RDMA device's name, e.g. {@code rxe0}. */
  String deviceName();

  /**
   * Registers a direct buffer (from its position to its limit; a {@code MappedByteBuffer}
   * works) for the given usages. The buffer stays referenced while the region is registered.
   */
  Future<MemoryRegion> register(ByteBuffer buffer, Set<MemoryUsage> usages);

  default Future<MemoryRegion> register(ByteBuffer buffer, MemoryUsage usage,
      MemoryUsage... more) {
    return register(buffer, EnumSet.of(usage, more));
  }

  /**
   * Connects to a server. The Future completes with the connection when it is established,
   * on the caller's event-loop context, which then owns the connection.
   *
   * @param privateData bytes the server sees with the request (at most
   *     {@link RpmaConnection#MAX_CONNECT_PRIVATE_DATA}); null or empty for none. It arrives
   *     padded by the RDMA CM (see {@link PrivateData})
   */
  Future<RpmaConnection> connect(String address, int port, ConnectionOptions options,
      byte[] privateData);

  default Future<RpmaConnection> connect(String address, int port) {
    return connect(address, port, new ConnectionOptions(), null);
  }

  /**
   * Listens on an address and port. Each incoming request is handed to {@code requestHandler}
   * on the caller's event-loop context, to accept or reject; {@code options} set the queues of
   * the connections accepted.
   */
  Future<RpmaServer> listen(String address, int port, ConnectionOptions options,
      Handler<RpmaConnectionRequest> requestHandler);

  /** Closes what this peer made (servers, connections, regions), then the peer itself. */
  Future<Void> close();
}
