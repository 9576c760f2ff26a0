package dev.rpma.vertx;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.net.SocketAddress;

/**
 * An established RDMA connection, made on one Vert.x context (its {@link #context()}: the
 * caller's, a worker's included) and driven by that context's event loop.
 *
 * <p>Every operation returns a Future that completes on that context, when the device reports
 * the operation's completion, exactly once: with success, with an
 * {@link RpmaCompletionException} naming the work completion status, or with an
 * {@link RpmaConnectionClosedException}. Operations may be called from any thread; they are
 * posted on the owning loop, in call order. When the queues are full, operations wait, in
 * order, until completions make room.
 *
 * <p>Offsets and lengths are checked against the regions before anything is posted; a bad
 * argument fails the Future with an {@link IllegalArgumentException} (or
 * {@link IllegalStateException} for a closed region). On a connection that is closed or
 * closing, an operation's Future fails with {@link RpmaConnectionClosedException}, whose
 * message says why the connection ended.
 *
 * @since 0.1.0
 */
public interface RpmaConnection {

  /** The most private data a client can send with its request (RDMA CM over RoCE/IB). */
  int MAX_CONNECT_PRIVATE_DATA = 56;
  /** The most private data a server can send with its accept (RDMA CM over RoCE/IB). */
  int MAX_ACCEPT_PRIVATE_DATA = 196;

  /**
   * Reads {@code length} bytes from the remote region into the local one.
   *
   * @param dst the local region, registered for {@link MemoryUsage#READ_DST}
   * @param dstOffset where in {@code dst} the bytes go
   * @param src the remote region, registered by the peer for {@link MemoryUsage#READ_SRC}
   * @param srcOffset where in {@code src} the bytes are read
   * @param length the number of bytes
   * @return a Future completed when the bytes are in {@code dst}
   */
  Future<Void> read(MemoryRegion dst, long dstOffset, RemoteMemoryRegion src, long srcOffset,
      long length);

  /**
   * Writes {@code length} bytes of the local region to the remote one.
   *
   * @param dst the remote region, registered by the peer for {@link MemoryUsage#WRITE_DST}
   * @param dstOffset where in {@code dst} the bytes go
   * @param src the local region, registered for {@link MemoryUsage#WRITE_SRC}
   * @param srcOffset where in {@code src} the bytes are taken
   * @param length the number of bytes
   * @return a Future completed when the device reports the write done (not yet durable: see
   *     {@link #flush})
   */
  Future<Void> write(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src, long srcOffset,
      long length);

  /**
   * A write that also consumes a receive on the peer, carrying {@code immediate}.
   *
   * @param dst the remote region, registered by the peer for {@link MemoryUsage#WRITE_DST}
   * @param dstOffset where in {@code dst} the bytes go
   * @param src the local region, registered for {@link MemoryUsage#WRITE_SRC}
   * @param srcOffset where in {@code src} the bytes are taken
   * @param length the number of bytes
   * @param immediate 32 bits the peer's receive reports ({@link Received#immediate()})
   * @return a Future completed when the device reports the write done
   */
  Future<Void> writeWithImm(RemoteMemoryRegion dst, long dstOffset, MemoryRegion src,
      long srcOffset, long length, int immediate);

  /**
   * Writes 8 bytes atomically at an 8-byte-aligned offset: {@code value}'s bytes in this
   * machine's byte order (little-endian on x86_64).
   *
   * @param dst the remote region, registered by the peer for {@link MemoryUsage#WRITE_DST}
   * @param dstOffset where in {@code dst}, a multiple of 8
   * @param value the 8 bytes to write
   * @return a Future completed when the device reports the write done
   */
  Future<Void> atomicWrite(RemoteMemoryRegion dst, long dstOffset, long value);

  /**
   * Makes the remote range durable ({@link FlushType#PERSISTENT}) or visible
   * ({@link FlushType#VISIBILITY}); completes when the peer's device confirms.
   *
   * @param dst the remote region, registered by the peer for the flush type's usage
   * @param dstOffset where the range starts in {@code dst}
   * @param length the range's length
   * @param type how deep to flush
   * @return a Future completed when the peer's device confirms
   */
  Future<Void> flush(RemoteMemoryRegion dst, long dstOffset, long length, FlushType type);

  /**
   * Sends a message; the peer must have posted a receive.
   *
   * @param src the local region, registered for {@link MemoryUsage#SEND}
   * @param offset where the message starts in {@code src}
   * @param length the message's length
   * @return a Future completed when the device reports the message sent
   */
  Future<Void> send(MemoryRegion src, long offset, long length);

  /**
   * Sends a message with immediate data; the peer must have posted a receive.
   *
   * @param src the local region, registered for {@link MemoryUsage#SEND}
   * @param offset where the message starts in {@code src}
   * @param length the message's length
   * @param immediate 32 bits the peer's receive reports ({@link Received#immediate()})
   * @return a Future completed when the device reports the message sent
   */
  Future<Void> sendWithImm(MemoryRegion src, long offset, long length, int immediate);

  /**
   * Posts a receive; completes when a message (or a write with immediate data) arrives.
   *
   * @param dst the local region, registered for {@link MemoryUsage#RECV}
   * @param offset where a message is written in {@code dst}
   * @param length the most bytes a message may have
   * @return a Future completed with what arrived
   */
  Future<Received> recv(MemoryRegion dst, long offset, long length);

  /**
   * The private data the other side sent when accepting (on a client) or connecting (on a
   * server side), as the RDMA CM delivers it: padded with zeros (over RoCE to
   * {@link #MAX_ACCEPT_PRIVATE_DATA} or {@link #MAX_CONNECT_PRIVATE_DATA} bytes), empty if
   * none was sent. Use a self-delimiting format, or {@link PrivateData#frame}.
   *
   * @return the bytes as received
   */
  byte[] remotePrivateData();

  /**
   * Applies the other side's {@link PeerConfig}: whether its memory takes writes directly to
   * persistence decides how a persistent flush is done. Operations called after it, from any
   * thread, see it.
   *
   * @param remote the configuration the other side sent, e.g. from {@link RegionOffer}
   * @throws IllegalArgumentException if {@code remote} is null or not made by this library
   * @throws IllegalStateException if the connection is closed (or closing)
   */
  void applyRemotePeerConfig(PeerConfig remote);

  /**
   * The context that made this connection, as Vert.x's own clients keep the caller's: the one
   * that called {@code connect} (or {@code listen}, for a server side), a worker's or
   * virtual-thread context included; a new event-loop context for a caller outside Vert.x. Its
   * Futures and close handler run on it. Completions are taken on the event loop behind it in
   * every case (a worker context has one too); for a worker context, each Future is then
   * completed on the worker.
   *
   * @return the context its Futures and handlers run on
   */
  Context context();

  /**
   * This side's address and port: on a client, the source port the RDMA CM chose included. Read
   * on the first call (of this or {@link #remoteAddress()}) from the kernel's table of RDMA CM
   * ids, by this connection's QP number, since librpma keeps its rdma_cm id to itself. If that
   * table cannot be had (a kernel without it, no file descriptor left, first asked after the
   * close): a client's peer's {@link RpmaPeer#address()} with port 0, a server side's listener.
   *
   * @return this side's address
   */
  SocketAddress localAddress();

  /**
   * The other side's address and port, read as {@link #localAddress()}. If the table cannot be
   * had: on a client, the host and port it connected to; on a server's side null.
   *
   * @return the other side's address; null on a server's side if it cannot be read
   */
  SocketAddress remoteAddress();

  /**
   * Called once, on its {@link #context()}, when a fault ends the connection, as a
   * {@code NetSocket}'s exception handler: the connection was lost, the peer was unreachable,
   * no completion came within the completion timeout, a keepalive probe failed, or an
   * operation completed with an error (which puts the queue pair in the error state: that
   * operation fails with its {@code RpmaCompletionException}, the exception handed here has it
   * as its cause, and every later operation fails with {@code RpmaConnectionClosedException}).
   * Not called for {@link #close()} nor for the peer's orderly disconnect: both are ends, not
   * faults ({@link #endHandler} sees every end). Pending operations have failed by then.
   *
   * @param handler receives the {@link RpmaConnectionClosedException} that says what ended it
   * @return this connection
   */
  RpmaConnection exceptionHandler(Handler<Throwable> handler);

  /**
   * Called once, on its {@link #context()}, when the connection has ended, however: its
   * {@link #close()}, its owner's close (peer, server, undeploy), the peer's disconnect, or a
   * fault (after the {@link #exceptionHandler}); librpma has released it by then. This is what
   * a {@code NetSocket}'s {@code closeHandler(Handler<Void>)} does: under that name here it
   * would clash with the deprecated {@link #closeHandler(Handler)} for every lambda.
   *
   * @param handler called with null once the connection is released
   * @return this connection
   */
  RpmaConnection endHandler(Handler<Void> handler);

  /**
   * Called once, on its {@link #context()}, when the connection ends for any reason other than
   * {@link #close()}: the peer disconnected, the connection was lost, no completion came within
   * the completion timeout, or an operation completed with an error. Pending operations have
   * failed by then.
   *
   * @param handler receives the reason the connection ended
   * @return this connection
   * @deprecated a {@code NetSocket} splits this in two: use {@link #exceptionHandler} for the
   *     faults (the peer's orderly disconnect is none) and {@link #endHandler} for every end
   */
  @Deprecated
  RpmaConnection closeHandler(Handler<Throwable> handler);

  /**
   * Counters of the completion path, for tests and benchmarks.
   *
   * @return the counters now
   */
  CompletionStats stats();

  /**
   * Disconnects. Operations not yet completed fail with {@link RpmaConnectionClosedException};
   * the Future completes when librpma has released the connection.
   *
   * @return a Future completed when the connection is released
   */
  Future<Void> close();
}
