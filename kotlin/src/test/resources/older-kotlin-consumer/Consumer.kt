// A consumer of vertx-rpma-kotlin as a project on an older Kotlin writes it, compiled by
// OlderKotlinConsumerTest with that Kotlin's compiler against the module's classes: it must
// compile without an error (the module's metadata and stdlib calls are pinned for it).
package consumer

import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.PeerConfig
import dev.rpma.vertx.RegionOffer
import dev.rpma.vertx.SharedReceived
import dev.rpma.vertx.kotlin.AbandonedReceive
import dev.rpma.vertx.kotlin.Connection
import dev.rpma.vertx.kotlin.MessageChannel
import dev.rpma.vertx.kotlin.accept
import dev.rpma.vertx.kotlin.acceptChannel
import dev.rpma.vertx.kotlin.applyTo
import dev.rpma.vertx.kotlin.connectChannel
import dev.rpma.vertx.kotlin.createSharedReceiveQueue
import dev.rpma.vertx.kotlin.offer
import dev.rpma.vertx.kotlin.openRpmaPeer
import dev.rpma.vertx.kotlin.sender
import dev.rpma.vertx.kotlin.use
import io.vertx.core.Vertx
import io.vertx.core.buffer.Buffer
import java.nio.ByteBuffer
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.take

suspend fun server(vertx: Vertx, ip: String, port: Int) {
  vertx.openRpmaPeer(ip).use { peer ->
    val slots = peer.register(ByteBuffer.allocateDirect(64 * 1024), MemoryUsage.RECV,
        MemoryUsage.SEND)
    val queue = peer.createSharedReceiveQueue()
    queue.onAbandonedReceive { abandoned: AbandonedReceive<SharedReceived> -> println(abandoned) }
    val server = peer.listen(port, ip, queue = queue)
    val request = server.requests.receive()
    val connection: Connection = request.accept(slots.offer(PeerConfig.create(false)))
    queue.messages(slots, 4096).take(1).collect { message ->
      check(message.sender == connection)
      message.sender.send(slots, message.offset, message.size.toLong())
    }
    val one: SharedReceived = queue.recv(slots, 0, 4096)
    println(one.sender)
  }
}

suspend fun client(vertx: Vertx, ip: String, port: Int): ByteArray {
  val peer = vertx.openRpmaPeer(ip)
  val connection = peer.connect(port, ip)
  val remote = RegionOffer.fromBytes(connection.remotePrivateData).applyTo(connection)
  remote.close()
  val channel: MessageChannel = peer.connectChannel(port + 1, ip)
  channel.use { it.send(Buffer.buffer("hello")) }
  val request = peer.listen(port + 2, ip).requests.receive()
  request.acceptChannel().messages().collect { println(it) }
  return connection.remotePrivateData
}
