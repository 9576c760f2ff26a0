package dev.rpma.vertx.kotlin

import dev.rpma.vertx.RpmaConnectionRequest
import dev.rpma.vertx.RpmaServer
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.ReceiveChannel

/**
 * A listening endpoint ([RpmaServer]); made by [Peer.listen]. Take its connection requests
 * from [requests]:
 *
 * ```
 * for (request in server.requests) {
 *   val connection = request.accept(offer)
 *   launch { serve(connection) }
 * }
 * ```
 *
 * @since 0.1.0
 */
public class Server internal constructor(
  /** The library's server, for the Java API. */
  public val java: RpmaServer,
  private val queue: RequestQueue,
) : SuspendCloseable {

  /** The port it listens on. */
  public val port: Int get() = java.actualPort()

  /**
   * Incoming connection requests, in arrival order; closed by [close]. A request nobody
   * answers stays pending until the client gives up or the server closes, which rejects it.
   */
  public val requests: ReceiveChannel<ConnectionRequest> get() = queue.channel

  /** Stops listening; requests not answered yet are rejected, [requests] ends. */
  override suspend fun close() {
    try {
      java.close().awaitClosed()
    } finally {
      queue.channel.close()
    }
  }

  override fun toString(): String = "Server(port=$port)"
}

/**
 * Where the library's request handler puts requests for [Server.requests]: unbounded, since
 * each is a client waiting for an answer (the CM's backlog bounds them), and a full queue
 * could only reject them.
 */
internal class RequestQueue {
  val channel = Channel<ConnectionRequest>(Channel.UNLIMITED)

  fun offer(request: RpmaConnectionRequest) {
    if (channel.trySend(ConnectionRequest(request)).isFailure) {
      request.reject() // the server is closing: nobody will take it
    }
  }
}
