package dev.rpma.vertx;

import dev.rpma.vertx.impl.ClassPathVersions;
import dev.rpma.vertx.impl.PeerImpl;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
   * run on a native transport the library can watch its fds on: Netty's epoll or io_uring.
   *
   * @param vertx the Vert.x instance, on native epoll
   *     ({@code new VertxOptions().setPreferNativeTransport(true)}) or io_uring
   *     ({@code Vertx.builder().with(options).withTransport(Transport.IO_URING).build()})
   * @param address an IP address of a local RDMA-capable interface
   * @return a Future completed with the peer; failed with an {@link IllegalStateException}
   *     naming both versions when the class path's Vert.x is not 5 or its Netty older than
   *     4.2, an {@link IllegalArgumentException} when {@code vertx} is null or the address is
   *     not an IP address or a host name, an {@link RpmaException} when no device serves the
   *     address, an {@link IllegalStateException} when Vert.x is on neither native epoll nor
   *     io_uring (NIO, say), an {@link UnsatisfiedLinkError} when the JNI library or librpma
   *     cannot load
   */
  static Future<RpmaPeer> open(Vertx vertx, String address) {
    // before PeerImpl links against Vert.x 5's internals: a clear error on Vert.x 4
    String classPath = ClassPathVersions.problem();
    if (classPath != null) {
      return Future.failedFuture(new IllegalStateException(classPath));
    }
    return PeerImpl.open(vertx, address);
  }

  /**
   * The address this peer was opened for.
   *
   * @return the address given to {@link #open}
   */
  String address();

  /**
   * The RDMA device's name.
   *
   * @return e.g. {@code rxe0}
   */
  String deviceName();

  /**
   * Registers a direct buffer (from its position to its limit; a {@code MappedByteBuffer}
   * works) for the given usages. The buffer stays referenced while the region is registered.
   *
   * @param buffer a direct buffer
   * @param usages what the region may be used for
   * @return a Future completed with the registered region
   */
  Future<MemoryRegion> register(ByteBuffer buffer, Set<MemoryUsage> usages);

  /**
   * Registers a direct buffer for the given usages, as {@link #register(ByteBuffer, Set)}.
   *
   * @param buffer a direct buffer
   * @param usage what the region may be used for
   * @param more further usages
   * @return a Future completed with the registered region
   */
  default Future<MemoryRegion> register(ByteBuffer buffer, MemoryUsage usage,
      MemoryUsage... more) {
    if (usage == null || more == null || Arrays.asList(more).contains(null)) {
      return register(buffer, (Set<MemoryUsage>) null); // fails naming the null
    }
    return register(buffer, EnumSet.of(usage, more));
  }

  /**
   * Connects to a server. The Future completes with the connection when it is established,
   * on the caller's event-loop context, which then owns the connection.
   *
   * @param address the server's address
   * @param port the server's port
   * @param options the connection's queues and timeouts
   * @param privateData bytes the server sees with the request (at most
   *     {@link RpmaConnection#MAX_CONNECT_PRIVATE_DATA}); null or empty for none. It arrives
   *     padded by the RDMA CM (see {@link PrivateData})
   * @return a Future completed with the established connection
   */
  Future<RpmaConnection> connect(String address, int port, ConnectionOptions options,
      byte[] privateData);

  /**
   * Connects to a server with the default options and no private data.
   *
   * @param address the server's address
   * @param port the server's port
   * @return a Future completed with the established connection
   */
  default Future<RpmaConnection> connect(String address, int port) {
    return connect(address, port, new ConnectionOptions(), null);
  }

  /**
   * Listens on an address and port. Each incoming request is handed to {@code requestHandler}
   * on the caller's event-loop context, to accept or reject; {@code options} set the queues of
   * the connections accepted.
   *
   * @param address a local address this peer's device serves
   * @param port the port to listen on
   * @param options the queues and timeouts of the connections accepted
   * @param requestHandler called with each incoming request
   * @return a Future completed with the server when it listens
   */
  Future<RpmaServer> listen(String address, int port, ConnectionOptions options,
      Handler<RpmaConnectionRequest> requestHandler);

  /**
   * Connects to a server, the connection attached to a shared receive queue: the messages it
   * receives land in the queue's receives ({@link RpmaConnection#recv} is refused on it).
   *
   * @param address the server's address
   * @param port the server's port
   * @param options the connection's queues and timeouts ({@code sharedCompletionChannel} must
   *     be off: the queue's receive CQ has a channel of its own)
   * @param privateData as {@link #connect(String, int, ConnectionOptions, byte[])}
   * @param queue a queue of this peer, open, on the caller's event loop; null for none
   * @return a Future completed with the established connection; failed with an
   *     {@link IllegalStateException} or {@link IllegalArgumentException} naming what is wrong
   *     with the queue (another peer's, closed, another event loop)
   */
  Future<RpmaConnection> connect(String address, int port, ConnectionOptions options,
      byte[] privateData, RpmaSharedReceiveQueue queue);

  /**
   * Listens as {@link #listen(String, int, ConnectionOptions, Handler)}, every connection it
   * accepts attached to a shared receive queue (the queue pair is made when a request arrives,
   * so the queue is the listener's, not each accept's). Receives cannot be posted on its
   * requests: post them to the queue.
   *
   * @param address a local address this peer's device serves
   * @param port the port to listen on
   * @param options the queues and timeouts of the connections accepted
   * @param queue a queue of this peer, open, on the caller's event loop; null for none
   * @param requestHandler called with each incoming request
   * @return a Future completed with the server when it listens
   */
  Future<RpmaServer> listen(String address, int port, ConnectionOptions options,
      RpmaSharedReceiveQueue queue, Handler<RpmaConnectionRequest> requestHandler);

  /**
   * Makes a shared receive queue on this peer's device, its receive CQ watched on the caller's
   * event loop (see {@link RpmaSharedReceiveQueue}); owned by this peer and by the caller's
   * context.
   *
   * @param options its sizes
   * @return a Future completed with the queue
   */
  Future<RpmaSharedReceiveQueue> createSharedReceiveQueue(SharedReceiveQueueOptions options);

  /**
   * Closes what this peer made (servers, connections, shared receive queues, regions), then
   * the peer itself.
   *
   * @return a Future completed when all of it is closed
   */
  Future<Void> close();
}
