package dev.rpma.vertx.kotlin

import dev.rpma.vertx.ConnectionOptions
import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.PeerConfig
import dev.rpma.vertx.RegionOffer
import dev.rpma.vertx.RemoteMemoryRegion
import io.vertx.core.Vertx
import io.vertx.core.VertxOptions
import io.vertx.core.transport.Transport
import io.vertx.kotlin.coroutines.coAwait
import io.vertx.kotlin.coroutines.dispatcher
import java.nio.ByteBuffer
import java.util.EnumSet
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Assumptions.assumeTrue

/** What the Kotlin device tests share: the device's address, a native Vert.x, a test body. */
object Device {

  /** Generous: the Soft-RoCE guest runs the JVM about ten times slower than a host. */
  const val AWAIT_SECONDS = 120L

  private val nextPort = AtomicInteger(9600 + (ProcessHandle.current().pid() % 100).toInt() * 10)

  /**
   * The address of a real RDMA device (RPMA_TEST_IP, set by ./dev rdma). Where the run requires
   * a device (the test bed's suites: -Drpma.test.device=required, or RPMA_TEST_GUEST=1) and
   * there is none, the test fails; elsewhere it skips.
   */
  fun ip(): String = ip(System.getenv("RPMA_TEST_IP"),
      System.getProperty("rpma.test.device") == "required" || System.getenv("RPMA_TEST_GUEST") == "1")

  /** [ip] on the address given and whether a device is required. */
  fun ip(ip: String?, required: Boolean): String {
    if (!ip.isNullOrBlank()) return ip
    if (required) {
      fail<Unit>("no RDMA device: RPMA_TEST_IP is not set, and this run requires one " +
          "(-Drpma.test.device=required or RPMA_TEST_GUEST=1): the test bed lost the device's address")
    }
    assumeTrue(false,
        "no RDMA device: RPMA_TEST_IP is not set (run the suite through ./dev test or ./dev rdma)")
    return ""
  }

  fun nextPort(): Int = nextPort.getAndIncrement()

  /** Vert.x on the transport `-Drpma.test.transport` names (the suite's passes), else epoll. */
  fun nativeVertx(): Vertx {
    val name = System.getProperty("rpma.test.transport", "epoll")
    val transport = when (name) {
      "epoll" -> Transport.EPOLL
      "io_uring" -> Transport.IO_URING
      else -> throw IllegalArgumentException("-Drpma.test.transport=$name: epoll or io_uring")
    }
    if (transport == null || !transport.available()) {
      fail<Unit>("native $name transport is not available")
    }
    return Vertx.builder().with(VertxOptions().setPreferNativeTransport(true))
        .withTransport(transport).build()
  }

  /**
   * Runs [body] on an event-loop context of a fresh native Vert.x (as a verticle's code runs),
   * bounded by [timeoutSeconds] ([AWAIT_SECONDS] unless a long test says more); closes that
   * Vert.x after.
   */
  fun test(timeoutSeconds: Long = AWAIT_SECONDS, body: suspend CoroutineScope.(Vertx) -> Unit) {
    ip() // skips the test when there is no device
    val vertx = nativeVertx()
    try {
      runBlocking(vertx.orCreateContext.dispatcher()) {
        withTimeout(timeoutSeconds * 1000) { body(vertx) }
      }
    } finally {
      runBlocking { vertx.close().coAwait() }
    }
  }
}

/** [Device.test] with a connected [Pair], closed after [body]. */
fun pairTest(body: suspend CoroutineScope.(Pair) -> Unit): Unit = Device.test { vertx ->
  val pair = Pair.open(vertx)
  try {
    body(pair)
  } finally {
    pair.close()
  }
}

/** Bytes 0..n-1 of a pattern that differs per seed. */
fun pattern(length: Int, seed: Int): ByteArray = ByteArray(length) { (it * 31 + seed).toByte() }

fun Region.bytes(offset: Int, length: Int): ByteArray {
  val out = ByteArray(length)
  buffer().get(offset, out)
  return out
}

fun Region.put(offset: Int, bytes: ByteArray) {
  buffer().put(offset, bytes)
}

/** A server and a client, each with its own peer, connected through the Kotlin API. */
class Pair private constructor(
  val serverPeer: Peer,
  val clientPeer: Peer,
  val serverRegion: Region,
  val clientRegion: Region,
  val server: Server,
  val client: Connection,
  val serverSide: Connection,
  val remote: RemoteMemoryRegion,
) {
  suspend fun close() {
    client.close()
    server.close()
    remote.close().coAwait()
    clientPeer.close()
    serverPeer.close()
  }

  companion object {
    const val SIZE = 64 * 1024

    suspend fun open(vertx: Vertx, options: ConnectionOptions = ConnectionOptions()): Pair =
      coroutineScope {
        val ip = Device.ip()
        val serverPeer = vertx.openRpmaPeer(ip)
        val clientPeer = vertx.openRpmaPeer(ip)
        val serverRegion = serverPeer.register(ByteBuffer.allocateDirect(SIZE),
            EnumSet.of(MemoryUsage.READ_SRC, MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_PERSISTENT,
                MemoryUsage.FLUSH_VISIBILITY, MemoryUsage.SEND, MemoryUsage.RECV))
        val clientRegion = clientPeer.register(ByteBuffer.allocateDirect(SIZE),
            MemoryUsage.READ_DST, MemoryUsage.WRITE_SRC, MemoryUsage.SEND, MemoryUsage.RECV)
        val port = Device.nextPort()
        val server = serverPeer.listen(port, ip, options)
        val accepted = async {
          server.requests.receive()
              .accept(serverRegion.offer(PeerConfig.create(true)))
        }
        val client = clientPeer.connect(port, ip, options)
        val serverSide = accepted.await()
        val remote = RegionOffer.fromBytes(client.remotePrivateData).applyTo(client)
        Pair(serverPeer, clientPeer, serverRegion, clientRegion, server, client, serverSide, remote)
      }
  }
}
