package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MessageChannelOptions
import io.vertx.core.buffer.Buffer
import java.lang.management.BufferPoolMXBean
import java.lang.management.ManagementFactory
import java.nio.file.Files
import java.nio.file.Path
import kotlin.random.Random
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.onEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * A long stream from a suspending send to a Flow whose collector stalls at random: every
 * message arrives once, in order, intact, the device counts no receiver-not-ready, and memory
 * stays flat (heap after GC and direct memory from a fifth of the stream to its end). 20,000
 * messages by default (each is a JVM hop under the emulator); `RPMA_CHANNEL_MESSAGES` sets
 * another count, as for the library's ChannelStreamTest.
 */
@Tag("rdma")
class ChannelStreamDeviceTest {

  private val messages = System.getenv("RPMA_CHANNEL_MESSAGES")?.toInt() ?: 20_000

  /** Its time limit: about 2,000 messages/s are seen on the emulator; five times the time. */
  private val timeoutSeconds = maxOf(Device.AWAIT_SECONDS, messages / 400L)

  /** Message [seq]: its number, then bytes that depend on it, 4 to MAX_SIZE long. */
  private fun message(seq: Int): Buffer {
    val length = 4 + (seq.toLong() * 7919 % (MAX_SIZE - 3)).toInt() // Long: no overflow
    val b = Buffer.buffer(length).appendInt(seq)
    for (i in 4 until length) b.appendByte((seq + i).toByte())
    return b
  }

  @Test
  fun aLongStreamToAStallingCollectorArrivesCompleteInOrderWithoutReceiverNotReady() =
    Device.test(timeoutSeconds) { vertx ->
      val ip = Device.ip()
      val serverPeer = vertx.openRpmaPeer(ip)
      val clientPeer = vertx.openRpmaPeer(ip)
      val options = MessageChannelOptions().setReceiveBufferSize(MAX_SIZE).setReceiveBuffers(16)
      val server = serverPeer.listen(Device.nextPort(), ip)
      val rnrBefore = rnrCount(serverPeer.deviceName)
      val (reader, writer) = coroutineScope {
        val accepted = async { server.requests.receive().acceptChannel(options) }
        val writer = clientPeer.connectChannel(server.port, ip)
        accepted.await() to writer
      }
      val random = Random(42)
      var expected = 0
      var wrong: String? = null
      val heapAfterGc = LongArray(2)
      val direct = LongArray(2)

      val received = async {
        reader.messages().onEach {
          if (random.nextInt(500) == 0) delay(random.nextLong(1, 50)) // the collector stalls
        }.collect {
          val seq = expected++
          if (wrong == null && it != message(seq)) {
            wrong = "message $seq arrived as ${it.length()} bytes, number ${it.getInt(0)}"
          }
          if (seq == messages / 5 || seq == messages - 1) { // memory: after a fifth, at the end
            val i = if (seq == messages / 5) 0 else 1
            heapAfterGc[i] = usedHeapAfterGc()
            direct[i] = directMemory()
          }
        }
      }
      for (seq in 0 until messages) writer.send(message(seq))
      writer.end()
      received.await()

      assertNull(wrong)
      assertEquals(messages, expected, "every message arrived, once")
      assertEquals(rnrBefore, rnrCount(serverPeer.deviceName), "no receiver-not-ready")
      println("kotlin channel stream: $messages messages; heap after GC " +
          "${heapAfterGc[0] / 1024} KiB -> ${heapAfterGc[1] / 1024} KiB; direct " +
          "${direct[0]} -> ${direct[1]} bytes")
      assertEquals(direct[0], direct[1], "direct memory grew during the stream")
      assertTrue(heapAfterGc[1] - heapAfterGc[0] < 32L shl 20,
          "heap after GC grew by more than 32 MiB over the stream")
      clientPeer.close()
      serverPeer.close()
    }

  private companion object {
    const val MAX_SIZE = 512

    fun usedHeapAfterGc(): Long {
      System.gc()
      return ManagementFactory.getMemoryMXBean().heapMemoryUsage.used
    }

    fun directMemory(): Long =
      ManagementFactory.getPlatformMXBeans(BufferPoolMXBean::class.java)
          .filter { it.name == "direct" }.sumOf { it.memoryUsed }

    /** The device's receiver-not-ready counters (rxe's hw_counters), summed; -1 if none. */
    fun rnrCount(device: String): Long {
      val counters = Path.of("/sys/class/infiniband", device, "ports/1/hw_counters")
      if (!Files.isDirectory(counters)) return -1
      return Files.list(counters).use { files ->
        files.filter { it.fileName.toString().contains("rnr") }
            .mapToLong { Files.readString(it).trim().toLong() }.sum()
      }
    }
  }
}
