package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MessageChannelOptions
import dev.rpma.vertx.MessageTooLargeException
import io.vertx.core.Vertx
import io.vertx.core.buffer.Buffer
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** Messages as a Flow with back-pressure to a suspending send, on the real device. */
@Tag("rdma")
class MessageChannelDeviceTest {

  /** Small pools and queues, so back-pressure shows within a few messages. */
  private val small = MessageChannelOptions().setReceiveBuffers(4).setSendBuffers(4)
      .setWriteQueueMaxSize(8)

  private class Channels(val server: MessageChannel, val client: MessageChannel, val peers: List<Peer>) {
    suspend fun close() {
      client.close()
      server.close()
      peers.forEach { it.close() }
    }
  }

  private suspend fun openChannels(vertx: Vertx, options: MessageChannelOptions): Channels =
    coroutineScope {
      val ip = Device.ip()
      val serverPeer = vertx.openRpmaPeer(ip)
      val clientPeer = vertx.openRpmaPeer(ip)
      val server = serverPeer.listen(Device.nextPort(), ip)
      val accepted = async {
        val request = server.requests.receive()
        assertTrue(request.isChannelRequest)
        request.acceptChannel(options)
      }
      val client = clientPeer.connectChannel(server.port, ip, options = options)
      Channels(accepted.await(), client, listOf(clientPeer, serverPeer))
    }

  private fun channelTest(options: MessageChannelOptions = small,
      body: suspend kotlinx.coroutines.CoroutineScope.(Channels) -> Unit) = Device.test { vertx ->
    val channels = openChannels(vertx, options)
    try {
      body(channels)
    } finally {
      channels.close()
    }
  }

  @Test
  fun messagesArriveAsAFlowInOrderThatCompletesWhenThePeerEnds() = channelTest { ch ->
    val count = 300
    val received = async { ch.server.messages().map { it.toString() }.toList() }

    repeat(count) { ch.client.send(Buffer.buffer("message $it")) }
    ch.client.end()

    assertEquals(List(count) { "message $it" }, received.await())
  }

  @Test
  fun aSlowCollectorPausesTheReaderAndTheWritersSendSuspendsUntilItCatchesUp() =
    channelTest { ch ->
      val count = 200
      val gate = CompletableDeferred<Unit>()
      val sent = AtomicInteger()
      val received = async {
        ch.server.messages(prefetch = 2).onEach { gate.await() }.map { it.getInt(0) }.toList()
      }
      val writer = launch(start = CoroutineStart.UNDISPATCHED) {
        repeat(count) {
          ch.client.send(Buffer.buffer().appendInt(it))
          sent.incrementAndGet()
        }
        ch.client.end()
      }

      while (!ch.client.java.writeQueueFull()) {
        delay(20) // the reader holds the first message: credit runs out, the queue fills
      }
      val sentWhenFull = sent.get()
      delay(500) // no assertion on speed: time for a send that should wait to return wrongly
      val stats = ch.server.stats()

      assertEquals(sentWhenFull, sent.get(), "no send returned while the queue was full")
      assertTrue(writer.isActive && sentWhenFull < count, "the writer waits in send")
      assertTrue(stats.heldMessages() > 0, "the paused reader holds messages: $stats")
      gate.complete(Unit)
      assertEquals(List(count) { it }, received.await(), "all arrive, in order, once it reads")
      writer.join()
      assertEquals(count, sent.get())
    }

  @Test
  fun aMessageLargerThanThePeersBuffersIsRefusedBySend() =
    channelTest(MessageChannelOptions().setReceiveBufferSize(1024)) { ch ->
      val tooLarge = Buffer.buffer(ByteArray(ch.client.maxMessageSize + 1))

      val e = assertThrows<MessageTooLargeException> { ch.client.send(tooLarge) }

      assertTrue(e.message!!.contains("1024"), e.message)
      ch.client.send(Buffer.buffer(ByteArray(1024)))
      assertEquals(1024, ch.server.messages().first().length())
    }

  @Test
  fun aSecondCollectorWhileOneCollectsIsRefused() = channelTest { ch ->
    val first = launch(start = CoroutineStart.UNDISPATCHED) { ch.server.messages().toList() }

    val e = assertThrows<IllegalStateException> { ch.server.messages().toList() }

    assertTrue(e.message!!.contains("one reader"), e.message)
    first.cancel()
  }

  @Test
  fun suspendingTheSameChannelAgainReturnsItsAdapterAndTakesNoHandlersAway() = channelTest { ch ->
    val again = ch.server.java.suspending()

    ch.client.send(Buffer.buffer("after the second call"))

    assertSame(ch.server, again)
    assertEquals("after the second call", ch.server.messages().first().toString(),
        "the first adapter still gets the channel's messages")
  }

  @Test
  fun messagesFetchedForACancelledCollectionGoToTheNextOne() = channelTest { ch ->
    repeat(3) { ch.client.send(Buffer.buffer("m$it")) }

    val firstOne = ch.server.messages(prefetch = 3).first().toString() // asks for 3, takes 1
    val rest = ch.server.messages().map { it.toString() }
    val next = async { rest.toList() }
    ch.client.end()

    assertEquals("m0", firstOne)
    assertEquals(listOf("m1", "m2"), next.await())
  }
}
