package dev.rpma.vertx.kotlin

import dev.rpma.vertx.ConnectionOptions
import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.RpmaConnectOptions
import dev.rpma.vertx.RpmaPeer
import io.vertx.core.Vertx
import java.nio.ByteBuffer
import java.nio.file.Path
import java.util.EnumSet

/**
 * Opens the RDMA device that serves [address] (device lookup and `rpma_peer_new` run on a
 * worker, never on the event loop). The peer belongs to the calling context (a verticle's
 * closes it on undeploy), else to Vert.x. Cancelled before it arrives, the peer is closed.
 *
 * @since 0.1.0
 */
public suspend fun Vertx.openRpmaPeer(address: String): Peer =
  RpmaPeer.open(this, address).awaitOwned { it.close() }.suspending()

/**
 * A device ([RpmaPeer]) with suspend functions: registers memory, connects, listens. Closing
 * it closes its servers and connections, then its regions.
 *
 * @since 0.1.0
 */
public class Peer internal constructor(
  /** The library's peer, for the Java API. */
  public val java: RpmaPeer,
) : SuspendCloseable {

  /** The address the peer was opened for. */
  public val address: String get() = java.address()

  /** The RDMA device's name, e.g. `rxe0`. */
  public val deviceName: String get() = java.deviceName()

  /**
   * Registers [buffer] (direct, or a `MappedByteBuffer` of a file) for [usages]; on a worker.
   * Cancelled before it is registered, the region is closed when it arrives.
   */
  public suspend fun register(buffer: ByteBuffer, usages: Set<MemoryUsage>): Region =
    java.register(buffer, usages).awaitOwned { it.close() }.suspending()

  /** [register] for one or more usages. */
  public suspend fun register(buffer: ByteBuffer, usage: MemoryUsage, vararg more: MemoryUsage):
    Region = register(buffer, EnumSet.of(usage, *more))

  /**
   * Maps [length] bytes of [file] (a file, or a device-DAX device) from [offset] and registers
   * them, past 2 GiB if need be: see [RpmaPeer.register]. Seen through `region.java.window`.
   * Cancelled before it completes, the region is closed when it arrives.
   */
  public suspend fun register(file: Path, offset: Long, length: Long, usages: Set<MemoryUsage>):
    Region = java.register(file, offset, length, usages).awaitOwned { it.close() }.suspending()

  /** Whether the device pages on demand; see [RpmaPeer.onDemandPaging]. */
  public val onDemandPaging: Boolean get() = java.onDemandPaging()

  /**
   * Connects to a server; returns once the connection is established. It belongs to the
   * calling context. Cancelled before that, the connection is closed when it arrives. With a
   * [queue] (of this peer, made on the caller's event loop), the connection's messages land in
   * the queue's receives.
   */
  public suspend fun connect(
    port: Int,
    host: String,
    options: ConnectionOptions = ConnectionOptions(),
    privateData: ByteArray? = null,
    queue: SharedReceiveQueue? = null,
  ): Connection {
    val target = RpmaConnectOptions().setHost(host).setPort(port)
      .setConnectionOptions(options).setPrivateData(privateData)
      .setSharedReceiveQueue(queue?.java)
    return java.connect(target).awaitOwned { it.close() }.suspending()
  }

  /**
   * Listens on [host]:[port]; incoming connection requests arrive in [Server.requests].
   * The server belongs to the calling context. Cancelled before it listens, it is closed.
   * With a [queue] (of this peer, made on the caller's event loop), every connection it
   * accepts is attached to it: post receives to the queue, not to the requests.
   */
  public suspend fun listen(
    port: Int,
    host: String,
    options: ConnectionOptions = ConnectionOptions(),
    queue: SharedReceiveQueue? = null,
  ): Server {
    val requests = RequestQueue()
    val listening = java.listen(port, host, options, queue?.java, requests::offer)
    return Server(listening.awaitOwned { it.close() }, requests)
  }

  /** Closes the peer: its servers and connections, then its regions, then the device. */
  override suspend fun close(): Unit = java.close().awaitClosed()

  override fun toString(): String = "Peer($address on $deviceName)"
}

/**
 * This library peer as a [Peer] of the coroutine API.
 *
 * @since 0.1.0
 */
public fun RpmaPeer.suspending(): Peer = Peer(this)
