package dev.rpma.vertx.kotlin

import dev.rpma.vertx.CompletionStats
import dev.rpma.vertx.FlushType
import dev.rpma.vertx.PeerConfig
import dev.rpma.vertx.Received
import dev.rpma.vertx.RemoteMemoryRegion
import dev.rpma.vertx.RpmaConnection
import io.vertx.core.Context
import kotlinx.coroutines.Deferred

/**
 * A connection ([RpmaConnection]) whose operations are suspend functions; made by
 * [Peer.connect] or [ConnectionRequest.accept]. Each call posts at once (in call order, from
 * any thread) and returns when the device completes the operation, on the connection's loop.
 *
 * Cancelling a caller never withdraws an operation (RDMA cannot): every operation but the
 * receives keeps its caller suspended until the device has completed it, then throws
 * `CancellationException`, so when a call returns or throws, the device is done with its
 * memory. Receives, which wait for the peer, are cancelled at once: see [recvAsync].
 *
 * @since 0.1.0
 */
public class Connection internal constructor(
  /** The library's connection, for the Java API. */
  public val java: RpmaConnection,
) : SuspendCloseable {

  private val receives = Receives<Received>()

  /** The context that made the connection (a worker's included): its callbacks run there. */
  public val context: Context get() = java.context()

  /** The peer's private data, as received (padded by the RDMA CM). */
  public val remotePrivateData: ByteArray get() = java.remotePrivateData()

  /** Counters of the connection (read them on its [context] for an exact view). */
  public fun stats(): CompletionStats = java.stats()

  /** Applies the peer's configuration (needed for a persistent [flush]). */
  public fun applyRemotePeerConfig(remote: PeerConfig): Unit = java.applyRemotePeerConfig(remote)

  /**
   * Called once, on the connection's context, when it ends other than by [close], with why
   * (the peer's orderly disconnect included, which [onException] does not see).
   */
  @Suppress("DEPRECATION") // the Java form that carries the reason of every end
  public fun onClose(handler: (Throwable) -> Unit) {
    java.closeHandler(handler)
  }

  /** Called on the connection's context when a fault ends it (not the peer's disconnect). */
  public fun onException(handler: (Throwable) -> Unit) {
    java.exceptionHandler(handler)
  }

  /** Called once on the connection's context when it has ended, however it ended. */
  public fun onEnd(handler: () -> Unit) {
    java.endHandler { handler() }
  }

  /** Reads [length] bytes of [src] at [srcOffset] into [dst] at [dstOffset]. */
  public suspend fun read(
    dst: Region, dstOffset: Long, src: RemoteMemoryRegion, srcOffset: Long, length: Long,
  ) {
    java.read(dst.java, dstOffset, src, srcOffset, length).awaitDevice()
  }

  /** Writes [length] bytes of [src] at [srcOffset] to [dst] at [dstOffset]. */
  public suspend fun write(
    dst: RemoteMemoryRegion, dstOffset: Long, src: Region, srcOffset: Long, length: Long,
  ) {
    java.write(dst, dstOffset, src.java, srcOffset, length).awaitDevice()
  }

  /**
   * [write], then [flush] of the same bytes, both posted at once (one round trip less than
   * calling them in turn); returns when the bytes are durable ([type]) at the peer.
   */
  public suspend fun writeAndFlush(
    dst: RemoteMemoryRegion, dstOffset: Long, src: Region, srcOffset: Long, length: Long,
    type: FlushType = FlushType.PERSISTENT,
  ) {
    val written = java.write(dst, dstOffset, src.java, srcOffset, length)
    val flushed = java.flush(dst, dstOffset, length, type)
    // both awaited whatever happens to the first: the device may still read src for the write
    val writeOutcome = runCatching { written.awaitDevice() }
    flushed.awaitDevice()
    writeOutcome.getOrThrow()
  }

  /** [write] whose completion at the peer carries [immediate] (it takes one of its receives). */
  public suspend fun writeWithImm(
    dst: RemoteMemoryRegion, dstOffset: Long, src: Region, srcOffset: Long, length: Long,
    immediate: Int,
  ) {
    java.writeWithImm(dst, dstOffset, src.java, srcOffset, length, immediate).awaitDevice()
  }

  /** Writes the 8 bytes of [value] atomically to [dst] at [dstOffset] (8-byte aligned). */
  public suspend fun atomicWrite(dst: RemoteMemoryRegion, dstOffset: Long, value: Long) {
    java.atomicWrite(dst, dstOffset, value).awaitDevice()
  }

  /** Makes what was written to [dst] over the range durable ([type]) at the peer. */
  public suspend fun flush(
    dst: RemoteMemoryRegion, dstOffset: Long, length: Long,
    type: FlushType = FlushType.PERSISTENT,
  ) {
    java.flush(dst, dstOffset, length, type).awaitDevice()
  }

  /** Sends [length] bytes of [src] at [offset] as one message (the peer must have a receive). */
  public suspend fun send(src: Region, offset: Long, length: Long) {
    java.send(src.java, offset, length).awaitDevice()
  }

  /** [send] with [immediate] data. */
  public suspend fun sendWithImm(src: Region, offset: Long, length: Long, immediate: Int) {
    java.sendWithImm(src.java, offset, length, immediate).awaitDevice()
  }

  /**
   * Receives the next message (or write with immediate data) into [dst] at [offset], at most
   * [length] bytes. Cancelled, the caller resumes at once, but the receive stays posted (see
   * [recvAsync]).
   */
  public suspend fun recv(dst: Region, offset: Long, length: Long): Received =
    receives.await(recvAsync(dst, offset, length), dst, offset, length)

  /**
   * Posts a receive now and returns its Deferred: post it before the peer may send (e.g.
   * before sending a request whose reply it takes), then await it.
   *
   * Cancelling the Deferred (or a [recv] caller) cannot withdraw the receive: it stays posted
   * and takes the next message, its region stays held ([Region.close] waits for it), and the
   * message is handed to [onAbandonedReceive], never dropped silently. Closing the connection
   * ends every posted receive.
   */
  public fun recvAsync(dst: Region, offset: Long, length: Long): Deferred<Received> =
    receives.post(dst, offset, length, java.recv(dst.java, offset, length))

  /**
   * Where messages of receives whose waiter was cancelled go (default: logged as lost), for
   * receives completing from now on.
   */
  public fun onAbandonedReceive(handler: (AbandonedReceive<Received>) -> Unit) {
    receives.abandonedHandler = handler
  }

  /**
   * Disconnects; returns once the connection is closed: pending operations failed with
   * `RpmaConnectionClosedException`, its fds released. Goes on if the caller is cancelled.
   */
  override suspend fun close(): Unit = java.close().awaitClosed()

  override fun toString(): String = "Connection(${java.context()})"
}

private val connections = Adapters(::Connection)

/**
 * This library connection as a [Connection] of the coroutine API: the same one each time (so
 * the sender a [SharedReceiveQueue] names is the [Connection] its connect or accept returned,
 * with its [Connection.onAbandonedReceive] handler).
 *
 * @since 0.1.0
 */
public fun RpmaConnection.suspending(): Connection = connections.of(this)
