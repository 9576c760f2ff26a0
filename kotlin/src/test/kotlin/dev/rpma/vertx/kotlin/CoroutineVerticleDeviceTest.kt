package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.RpmaConnectionClosedException
import io.vertx.kotlin.coroutines.CoroutineVerticle
import io.vertx.kotlin.coroutines.coAwait
import java.nio.ByteBuffer
import java.nio.file.Files
import java.nio.file.Path
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.async
import kotlinx.coroutines.launch
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * A CoroutineVerticle's peer, regions and connections are its own: undeploying it cancels its
 * coroutines (a receive loop among them) and closes what it opened, with no stop() code.
 */
@Tag("rdma")
class CoroutineVerticleDeviceTest {

  /** Connects to [port] and receives in a loop, forever; closes nothing itself. */
  class ReceivingVerticle(private val ip: String, private val port: Int) : CoroutineVerticle() {
    val loopEnded = CompletableDeferred<Throwable?>()

    override suspend fun start() {
      val peer = vertx.openRpmaPeer(ip)
      val region = peer.register(ByteBuffer.allocateDirect(REGION_MIB shl 20), MemoryUsage.RECV)
      val connection = peer.connect(port, ip)
      launch {
        try {
          while (true) {
            connection.recv(region, 0, 4096)
          }
        } catch (e: Throwable) {
          loopEnded.complete(e)
          throw e
        }
      }
    }
  }

  @Test
  fun undeployingCancelsItsCoroutinesAndClosesWhatItOpened() = Device.test { vertx ->
    val ip = Device.ip()
    val serverPeer = vertx.openRpmaPeer(ip)
    val server = serverPeer.listen(Device.nextPort(), ip)
    val serverSide = async { server.requests.receive().accept() }
    val before = pinnedKib()
    val verticle = ReceivingVerticle(ip, server.port)
    val id = vertx.deployVerticle(verticle).coAwait()
    val accepted = serverSide.await()
    val deployed = pinnedKib()

    vertx.undeploy(id).coAwait()

    val region = serverPeer.register(ByteBuffer.allocateDirect(64), MemoryUsage.RECV)
    val failure = runCatching { accepted.recv(region, 0, 64) }.exceptionOrNull()
    val after = pinnedKib()
    assertTrue(verticle.loopEnded.await() is kotlinx.coroutines.CancellationException,
        "the verticle's receive loop was cancelled")
    assertTrue(failure is RpmaConnectionClosedException,
        "the verticle's connection was closed: the server's receive ends: $failure")
    assertTrue(deployed - before >= (REGION_MIB shl 10), "pinned: $before -> $deployed kB")
    assertTrue(after - before < 1024, "VmPin back after undeploy: $before -> $deployed -> $after kB")
    serverPeer.close()
  }

  private companion object {
    const val REGION_MIB = 16

    /** VmPin in KiB: memory pinned for the device (registered regions). */
    fun pinnedKib(): Long = Files.readAllLines(Path.of("/proc/self/status"))
        .first { it.startsWith("VmPin:") }
        .split(Regex("\\s+"))[1].toLong()
  }
}
