package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.SharedReceived
import io.vertx.core.Vertx
import java.nio.ByteBuffer
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * The shared receive queue from coroutines, on the real device: two clients connected to a
 * server whose listener attaches every accepted connection to the queue; the first client is
 * itself attached to a queue of its own (connect with a queue).
 */
@Tag("rdma")
class SharedReceiveQueueDeviceTest {

  private val slotSize = 256
  private val slotCount = 8

  /** Long enough for a wrong implementation to show itself; no assertion on speed. */
  private val whileHeldMs = 500L

  private class Setup(
    val queue: SharedReceiveQueue,
    val slots: Region,
    /** The server's side of each client, as its accept returned it. */
    val accepted: List<Connection>,
    val clients: List<Connection>,
    val clientRegion: Region,
    /** The first client's own queue (it connected with it). */
    val clientQueue: SharedReceiveQueue,
    val peers: List<Peer>,
  ) {
    /** Sends [text] from client [from], at its own place in the client region. */
    suspend fun send(from: Int, text: String, at: Int = 0) {
      val offset = from * 32 * 1024 + at * 256
      clientRegion.put(offset, text.toByteArray())
      clients[from].send(clientRegion, offset.toLong(), text.length.toLong())
    }
  }

  private suspend fun CoroutineScope.open(vertx: Vertx): Setup {
    val ip = Device.ip()
    val serverPeer = vertx.openRpmaPeer(ip)
    val clientPeer = vertx.openRpmaPeer(ip)
    val queue = serverPeer.createSharedReceiveQueue()
    val slots = serverPeer.register(ByteBuffer.allocateDirect(slotCount * slotSize),
        MemoryUsage.RECV, MemoryUsage.SEND)
    val server = serverPeer.listen(Device.nextPort(), ip, queue = queue)
    val clientQueue = clientPeer.createSharedReceiveQueue()
    val clientRegion = clientPeer.register(ByteBuffer.allocateDirect(64 * 1024),
        MemoryUsage.SEND, MemoryUsage.RECV)
    val accepted = mutableListOf<Connection>()
    val clients = mutableListOf<Connection>()
    for (i in 0 until 2) {
      val accepting = async { server.requests.receive().accept() }
      clients += clientPeer.connect(server.port, ip, queue = if (i == 0) clientQueue else null)
      accepted += accepting.await()
    }
    return Setup(queue, slots, accepted, clients, clientRegion, clientQueue,
        listOf(clientPeer, serverPeer))
  }

  private fun queueTest(body: suspend CoroutineScope.(Setup) -> Unit) = Device.test { vertx ->
    val setup = open(vertx)
    try {
      body(setup)
    } finally {
      setup.peers.forEach { it.close() }
    }
  }

  private fun QueueMessage.text(): String = String(toByteArray())

  private fun Region.text(offset: Long, length: Int): String = String(bytes(offset.toInt(), length))

  @Test
  fun recvTakesAMessageOfAnyAttachedConnectionAndNamesItsSenderAsItsAcceptReturnedIt() =
    queueTest { q ->
      val sending = async { q.send(1, "from the second") }

      val received = q.queue.recv(q.slots, 0, slotSize.toLong())
      sending.await()

      assertSame(q.accepted[1], received.sender)
      assertEquals("from the second", q.slots.text(0, received.byteLength()))
    }

  @Test
  fun aConnectionMadeWithAQueueHasItsMessagesLandInThatQueue() = queueTest { q ->
    val reply = q.clientQueue.recvAsync(q.clientRegion, 60_000, 256)
    q.slots.put(0, "reply".toByteArray())

    q.accepted[0].send(q.slots, 0, 5)

    val received = reply.await()
    assertSame(q.clients[0], received.sender)
    assertEquals("reply", q.clientRegion.text(60_000, received.byteLength()))
    assertThrows<IllegalStateException> { q.clients[0].recv(q.clientRegion, 0, 256) }
  }

  @Test
  fun messagesDeliversEachConnectionsMessagesInOrderThroughFewerSlotsThanMessages() =
    queueTest { q ->
      val perClient = slotCount * 5
      val collected = async {
        q.queue.messages(q.slots, slotSize).take(2 * perClient)
            .map { it.sender to it.text() }.toList()
      }

      val senders = List(2) { from ->
        launch { repeat(perClient) { n -> q.send(from, "client $from message $n", n % 64) } }
      }
      senders.forEach { it.join() }

      val messages = collected.await()
      for (from in 0 until 2) {
        assertEquals(List(perClient) { "client $from message $it" },
            messages.filter { it.first === q.accepted[from] }.map { it.second },
            "client $from's messages, each once, in the order sent")
      }
    }

  @Test
  fun aCancelledCollectionLeavesItsReceivesPostedAndTheNextCollectionStartsWithTheirMessages() =
    queueTest { q ->
      val collector = launch(start = CoroutineStart.UNDISPATCHED) {
        q.queue.messages(q.slots, slotSize).collect { fail("no message was sent yet: $it") }
      }

      collector.cancelAndJoin()
      // each send returns only once the peer received it: into the receives left posted
      repeat(3) { q.send(0, "late $it", it) }

      assertEquals(listOf("late 0", "late 1", "late 2"),
          q.queue.messages(q.slots, slotSize).take(3).map { it.text() }.toList(),
          "a new messages() of the region goes on with the slots the first one posted")
    }

  @Test
  fun messagesOfARegionInOtherSlotsThanItsPostedOnesIsRefused() = queueTest { q ->
    q.queue.messages(q.slots, slotSize).take(1).let { first ->
      launch(start = CoroutineStart.UNDISPATCHED) { first.toList() }.cancelAndJoin()
    }

    val e = assertThrows<IllegalStateException> { q.queue.messages(q.slots, slotSize / 2) }

    assertTrue(e.message!!.contains("$slotCount slots of $slotSize bytes"), e.message)
  }

  @Test
  fun aCancelledCollectionsRegionStaysHeldUntilTheQueueCloses() = queueTest { q ->
    val collector = launch(start = CoroutineStart.UNDISPATCHED) {
      q.queue.messages(q.slots, slotSize).collect { fail("no message was sent: $it") }
    }
    collector.cancelAndJoin()

    val regionClosed = async { q.slots.close() }
    delay(whileHeldMs)
    assertFalse(regionClosed.isCompleted, "the receives left posted hold the region")

    q.queue.close()
    regionClosed.await()
  }

  @Test
  fun aCancelledRecvResumesAtOnceAndTheMessageItsReceiveTakesGoesToOnAbandonedReceive() =
    queueTest { q ->
      val handedOver = CompletableDeferred<AbandonedReceive<SharedReceived>>()
      q.queue.onAbandonedReceive { handedOver.complete(it) }
      val receiver = launch(start = CoroutineStart.UNDISPATCHED) {
        q.queue.recv(q.slots, slotSize.toLong(), slotSize.toLong())
      }

      receiver.cancelAndJoin() // returns with no message: a receive waits for the peer
      q.send(1, "for nobody")

      val abandoned = handedOver.await()
      val received = abandoned.received!!
      assertTrue(receiver.isCancelled)
      assertSame(q.accepted[1], received.sender)
      assertEquals("for nobody", q.slots.text(abandoned.offset, received.byteLength()))
    }

  @Test
  fun closingTheQueueCompletesItsMessagesFlow() = queueTest { q ->
    val firstArrived = CompletableDeferred<Unit>()
    val collected = async {
      q.queue.messages(q.slots, slotSize).map { it.text() }
          .onEach { firstArrived.complete(Unit) }.toList()
    }
    q.send(0, "before the close")
    firstArrived.await()

    q.queue.close()

    assertEquals(listOf("before the close"), collected.await())
  }

  @Test
  fun aSecondCollectionOfTheSameFlowWhileOneCollectsIsRefused() = queueTest { q ->
    val flow = q.queue.messages(q.slots, slotSize)
    val first = launch(start = CoroutineStart.UNDISPATCHED) { flow.toList() }

    val e = assertThrows<IllegalStateException> { flow.toList() }

    assertTrue(e.message!!.contains("one reader"), e.message)
    first.cancel()
  }
}
