package dev.rpma.vertx;

import dev.rpma.vertx.impl.ClassPathVersions;
import dev.rpma.vertx.impl.PeerImpl;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
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
 *
 * @since 0.1.0
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
   * Maps a range of a file or of a device-DAX device ({@code /dev/daxN.M}, persistent memory)
   * shared and read-write, and registers it for the given usages: a region as large as the
   * device allows ({@link #maxRegionSize()}), past the 2 GiB a {@code ByteBuffer} holds. Its
   * bytes are seen through {@link MemoryRegion#window}; the library unmaps the range after the
   * region is closed. Writes land in the file's page cache (a file: sync it for durability) or
   * in persistent memory (device-DAX: {@link MemoryRegion#persistentMemory()}).
   *
   * <p>Refused with an {@link IllegalArgumentException} saying why: an offset not aligned (4 KiB
   * for a file, the device's alignment, often 2 MiB, for device-DAX, whose length must be a
   * multiple too), a range past the file's end (extend the file first), past
   * {@link #maxRegionSize()}, or past the locked-memory limit (registration pins the pages
   * unless the device has {@link #onDemandPaging()}). A file on a file system mounted with
   * {@code -o dax} (fs-DAX) cannot be registered by a device without on-demand paging: the
   * failure says so (use device-DAX).
   *
   * @param file a regular file, or a device-DAX device
   * @param offset the range's start in the file, a multiple of the alignment above
   * @param length the range's length in bytes
   * @param usages what the region may be used for
   * @return a Future completed with the registered region
   * @since 0.1.0
   */
  Future<MemoryRegion> register(Path file, long offset, long length, Set<MemoryUsage> usages);

  /**
   * Whether the device pages on demand (ODP): a registration then pins nothing, so fs-DAX files
   * and more memory than the memlock limit can be registered (librpma uses it when a plain
   * registration fails). Soft-RoCE (rxe) has none.
   *
   * @return true if the device reports on-demand paging
   * @since 0.1.0
   */
  boolean onDemandPaging();

  /**
   * The largest region the device registers ({@code max_mr_size}), bytes; {@link Long#MAX_VALUE}
   * if it allows more than a long holds, or if it could not be asked.
   *
   * @return the largest region's length in bytes
   * @since 0.1.0
   */
  long maxRegionSize();

  /**
   * Connects to a server, as a Vert.x {@code NetClient} does: the Future completes with the
   * connection when it is established, on the caller's context, which then owns the connection.
   * Bad options fail the Future with an {@link IllegalArgumentException} naming what is wrong.
   *
   * @param options the server's host and port, the private data, the shared receive queue to
   *     attach to (its {@code sharedCompletionChannel} must be off then) and the connection's
   *     queues and timeouts
   * @return a Future completed with the established connection
   */
  Future<RpmaConnection> connect(RpmaConnectOptions options);

  /**
   * Connects to a server with the default options and no private data, as
   * {@link #connect(RpmaConnectOptions)}.
   *
   * @param port the server's port
   * @param host the server's IP address
   * @return a Future completed with the established connection
   */
  Future<RpmaConnection> connect(int port, String host);

  /**
   * Connects to a server's inet socket address with the default options and no private data,
   * as {@link #connect(RpmaConnectOptions)}. A domain socket address fails the Future.
   *
   * @param address the server's address and port
   * @return a Future completed with the established connection
   */
  Future<RpmaConnection> connect(SocketAddress address);

  /**
   * Sets the handler {@link #listen(int)} and {@link #listen(int, String)} hand incoming
   * requests to, as a {@code NetServer}'s {@code connectHandler}: set it before listening. Each
   * listen takes the handler set when it is called; a later call changes later listens only.
   *
   * @param handler called with each incoming request, on the listening caller's context, to
   *     accept or reject it
   * @return this peer
   */
  RpmaPeer connectionRequestHandler(Handler<RpmaConnectionRequest> handler);

  /**
   * Listens on this peer's {@link #address()}, as {@link #listen(int, String)}.
   *
   * @param port the port to listen on; 0 for a free one, read back with
   *     {@link RpmaServer#actualPort()}
   * @return a Future completed with the server when it listens
   */
  default Future<RpmaServer> listen(int port) {
    return listen(port, address());
  }

  /**
   * Listens on a host and port with the default connection options, handing each request to
   * the {@link #connectionRequestHandler} set before; fails the Future with an
   * {@link IllegalStateException} if none is.
   *
   * @param port the port to listen on; 0 for a free one, read back with
   *     {@link RpmaServer#actualPort()}
   * @param host a local address this peer's device serves
   * @return a Future completed with the server when it listens
   */
  Future<RpmaServer> listen(int port, String host);

  /**
   * Listens as {@link #listen(int, String, ConnectionOptions, Handler)} with the default
   * connection options.
   *
   * @param port the port to listen on; 0 for a free one
   * @param host a local address this peer's device serves
   * @param requestHandler called with each incoming request
   * @return a Future completed with the server when it listens
   */
  default Future<RpmaServer> listen(int port, String host,
      Handler<RpmaConnectionRequest> requestHandler) {
    return listen(port, host, new ConnectionOptions(), requestHandler);
  }

  /**
   * Listens on a host and port. Each incoming request is handed to {@code requestHandler} on
   * the caller's context, to accept or reject; {@code options} set the queues of the
   * connections accepted.
   *
   * @param port the port to listen on; 0 for a free one, read back with
   *     {@link RpmaServer#actualPort()}
   * @param host a local address this peer's device serves
   * @param options the queues and timeouts of the connections accepted
   * @param requestHandler called with each incoming request
   * @return a Future completed with the server when it listens
   */
  default Future<RpmaServer> listen(int port, String host, ConnectionOptions options,
      Handler<RpmaConnectionRequest> requestHandler) {
    return listen(port, host, options, null, requestHandler);
  }

  /**
   * Listens as {@link #listen(int, String, ConnectionOptions, Handler)}, every connection it
   * accepts attached to a shared receive queue (the queue pair is made when a request arrives,
   * so the queue is the listener's, not each accept's). Receives cannot be posted on its
   * requests: post them to the queue.
   *
   * @param port the port to listen on; 0 for a free one
   * @param host a local address this peer's device serves
   * @param options the queues and timeouts of the connections accepted
   * @param queue a queue of this peer, open, on the caller's event loop; null for none
   * @param requestHandler called with each incoming request
   * @return a Future completed with the server when it listens
   */
  Future<RpmaServer> listen(int port, String host, ConnectionOptions options,
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
