package dev.rpma.vertx.kotlin

import dev.rpma.vertx.Received
import dev.rpma.vertx.RpmaConnectionClosedException
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * Cancelling a coroutine never frees or reuses memory the device may still access (README.md of
 * this module, "Cancelling"). The operations are held in flight on purpose: a send whose peer
 * has posted no receive is retried by the device (receiver not ready) until one is posted; a
 * receive waits for a message.
 */
@Tag("rdma")
class CancellationDeviceTest {

  /** Long enough for a wrong implementation to show itself; no assertion on speed. */
  private val whileInFlightMs = 500L

  @Test
  fun aCancelledSendKeepsItsCallerUntilTheDeviceIsDoneAndItsRegionCloseWaitsForIt() =
    pairTest { pair ->
      val original = pattern(64, 9)
      pair.clientRegion.put(0, original)
      val events = CopyOnWriteArrayList<String>()
      val sender = launch(start = CoroutineStart.UNDISPATCHED) {
        try {
          pair.client.send(pair.clientRegion, 0, 64)
        } finally {
          // what a cancelled caller does with its slot: reuse it at once
          pair.clientRegion.put(0, ByteArray(64) { 0x7f })
          events += "sender resumed"
        }
      }

      sender.cancel() // the send is in flight: the server posted no receive yet
      val regionClosed = async { pair.clientRegion.close().also { events += "region closed" } }
      delay(whileInFlightMs)
      assertEquals(listOf<String>(), events, "neither the caller nor the region's close ended " +
          "while the device was still sending from the buffer")

      val received = pair.serverSide.recv(pair.serverRegion, 0, 64) // the device can deliver now
      sender.join()
      regionClosed.await()

      assertTrue(sender.isCancelled)
      assertEquals(listOf("sender resumed", "region closed"), events)
      assertEquals(64, received.byteLength())
      assertArrayEquals(original, pair.serverRegion.bytes(0, 64),
          "the peer got the bytes as they were when sent, not the cancelled caller's reuse")
    }

  @Test
  fun aCancelledRecvResumesAtOnceItsReceiveHoldsTheRegionAndItsMessageIsHandedOver() =
    pairTest { pair ->
      val events = CopyOnWriteArrayList<String>()
      val handedOver = CompletableDeferred<AbandonedReceive<Received>>()
      pair.serverSide.onAbandonedReceive {
        events += "message handed over"
        handedOver.complete(it)
      }
      val receiver = launch(start = CoroutineStart.UNDISPATCHED) {
        pair.serverSide.recv(pair.serverRegion, 512, 256)
      }

      receiver.cancelAndJoin() // returns with no message: a receive waits for the peer
      val regionClosed = async { pair.serverRegion.close().also { events += "region closed" } }
      delay(whileInFlightMs)
      assertEquals(listOf<String>(), events, "the region stays held by the posted receive")

      val message = pattern(100, 8)
      pair.clientRegion.put(0, message)
      pair.client.send(pair.clientRegion, 0, 100)
      val abandoned = handedOver.await()
      regionClosed.await()

      assertTrue(receiver.isCancelled)
      assertEquals(listOf("message handed over", "region closed"), events)
      assertNotNull(abandoned.received)
      assertEquals(100, abandoned.received!!.byteLength())
      assertEquals(512, abandoned.offset)
      assertArrayEquals(message, pair.serverRegion.bytes(512, 100))
    }

  @Test
  fun aConnectCancelledBeforeItCompletesClosesTheConnectionItMade() = Device.test { vertx ->
    val ip = Device.ip()
    val serverPeer = vertx.openRpmaPeer(ip)
    val clientPeer = vertx.openRpmaPeer(ip)
    val server = serverPeer.listen(Device.nextPort(), ip)
    val serverSide = async { server.requests.receive().accept() }
    val connecting = launch(start = CoroutineStart.UNDISPATCHED) {
      clientPeer.connect(server.port, ip)
    }

    connecting.cancel() // the request is on its way: nobody will hold what it makes

    val accepted = serverSide.await()
    val region = serverPeer.register(java.nio.ByteBuffer.allocateDirect(64),
        dev.rpma.vertx.MemoryUsage.RECV)
    val failure = runCatching { accepted.recv(region, 0, 64) }.exceptionOrNull()
    assertTrue(connecting.isCancelled)
    assertTrue(failure is RpmaConnectionClosedException,
        "the client closed the connection nobody held, so the server's receive ends: $failure")
    clientPeer.close()
    serverPeer.close()
  }
}
