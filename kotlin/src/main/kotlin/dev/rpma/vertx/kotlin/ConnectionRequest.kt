package dev.rpma.vertx.kotlin

import dev.rpma.vertx.Received
import dev.rpma.vertx.RpmaConnectionRequest
import kotlinx.coroutines.Deferred

/**
 * A client's connection request ([RpmaConnectionRequest]), from [Server.requests]. Answer it
 * with [accept] or [reject].
 *
 * @since 0.1.0
 */
public class ConnectionRequest internal constructor(
  /** The library's request, for the Java API. */
  public val java: RpmaConnectionRequest,
) {

  private val receives = Receives<Received>()

  /** The client's private data (padded by the RDMA CM to 56 bytes). */
  public val privateData: ByteArray get() = java.privateData()

  /**
   * Posts a receive before the connection exists (`rpma_conn_req_recv`), so a client that
   * sends at once finds it; the message completes the returned Deferred. See
   * [Connection.recvAsync] for what cancelling it means.
   */
  public fun recvAsync(dst: Region, offset: Long, length: Long): Deferred<Received> =
    receives.post(dst, offset, length, java.recv(dst.java, offset, length))

  /**
   * Where messages of receives whose Deferred was cancelled go (default: logged as lost),
   * for receives posted from now on.
   */
  public fun onAbandonedReceive(handler: (AbandonedReceive<Received>) -> Unit) {
    receives.abandonedHandler = handler
  }

  /**
   * Accepts with [privateData] (at most 196 bytes); returns once the connection is
   * established. Cancelled before that, the connection is closed when it arrives.
   */
  public suspend fun accept(privateData: ByteArray? = null): Connection =
    java.accept(privateData).awaitOwned { it.close() }.suspending()

  /** Rejects the request: the client's connect fails. */
  public fun reject(): Unit = java.reject()
}
