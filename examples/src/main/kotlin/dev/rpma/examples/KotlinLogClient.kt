package dev.rpma.examples

import dev.rpma.vertx.DurabilityMethod
import dev.rpma.vertx.DurableWriter
import dev.rpma.vertx.MemoryUsage
import dev.rpma.vertx.RegionOffer
import dev.rpma.vertx.RemoteMemoryRegion
import dev.rpma.vertx.kotlin.Connection
import dev.rpma.vertx.kotlin.Peer
import dev.rpma.vertx.kotlin.Region
import dev.rpma.vertx.kotlin.applyTo
import dev.rpma.vertx.kotlin.openRpmaPeer
import io.vertx.core.Future
import io.vertx.core.Promise
import io.vertx.kotlin.coroutines.CoroutineVerticle
import io.vertx.kotlin.coroutines.coAwait
import java.nio.ByteBuffer
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch

/**
 * The log client with coroutines, on the Kotlin API (`vertx-rpma-kotlin`): the same appends as
 * [LogClientVerticle], written as plain sequential code with suspend functions. The window is
 * `window` coroutines, each appending one record at a time into its own slot; they all run on
 * this verticle's event loop, so they share the sequence counter without locks, and a
 * suspended one waits without holding a thread. A lane that is cancelled mid-append resumes
 * only once the device is done with its slot (the module's cancellation rule), so nothing
 * here has to track slots in flight.
 */
class KotlinLogClient(private val settings: LogSettings) : CoroutineVerticle(), LogClient {

  private val result = Promise.promise<ClientReport>()
  private lateinit var peer: Peer
  private lateinit var slots: Region
  private lateinit var connection: Connection
  private lateinit var log: RemoteMemoryRegion
  private var durable: DurableWriter? = null

  override fun style() = "Kotlin coroutines"

  override fun durability(): DurabilityMethod? = durable?.method()

  override fun result(): Future<ClientReport> = result.future()

  /** Returns once connected; the appends then run in a coroutine of this verticle. */
  override suspend fun start() {
    peer = vertx.openRpmaPeer(settings.address())
    slots = peer.register(ByteBuffer.allocateDirect(LogAppender.slotBytes(settings)),
        MemoryUsage.WRITE_SRC)
    connection = peer.connect(settings.port(), settings.serverAddress(),
        LogServerVerticle.connectionOptions(settings))
    // the server's offer: its peer configuration (applied: the persistent flush needs it), the log
    val offer = RegionOffer.fromBytes(connection.remotePrivateData)
    log = offer.applyTo(connection)
    LogClientChecks.check(log, settings).coAwait()
    // how appends become durable follows the server's offer (see LogAppender)
    durable = DurableWriter.open(peer.java, connection.java, log, offer.peerConfig()).coAwait()
    launch {
      try {
        result.tryComplete(ClientReport(peer.deviceName, appendAll(), connection.stats()))
      } catch (e: CancellationException) {
        result.tryFail("the client was stopped before it finished")
      } catch (e: Exception) {
        result.tryFail(e)
      }
    }
  }

  private suspend fun appendAll(): Measurement {
    val latencies = LatencyRecorder(settings.records())
    var next = 0L
    val started = System.nanoTime()
    coroutineScope {
      repeat(minOf(settings.window().toLong(), settings.records()).toInt()) { lane ->
        launch {
          while (next < settings.records()) {
            val sequence = next++
            val t0 = System.nanoTime()
            try {
              append(sequence, lane)
            } catch (e: CancellationException) {
              throw e
            } catch (e: Exception) {
              // Fails the scope: the other lanes are cancelled, no append starts after this.
              throw OperationFailedException("record", sequence, e)
            }
            latencies.record(System.nanoTime() - t0)
          }
        }
      }
    }
    return Measurement(settings.records(), System.nanoTime() - started, latencies)
  }

  /** Write, then persist: both posted at once (see [LogAppender.append]), done when durable. */
  private suspend fun append(sequence: Long, lane: Int) {
    val size = settings.recordSize()
    val slot = lane * size
    LogRecordFormat.encode(slots.buffer(), slot, sequence, size)
    val offset = settings.offsetOf(sequence)
    val written = connection.java.write(log, offset, slots.java, slot.toLong(), size.toLong())
    val persisted = durable!!.persist(offset, size.toLong())
    Future.all(written, persisted).coAwait()
  }

  override suspend fun stop() {
    result.tryFail("the client was stopped before it finished")
    // Disconnect first, so the server sees its writer leave; then free what is ours.
    if (::connection.isInitialized) {
      runCatching { connection.close() }
    }
    if (::log.isInitialized) {
      log.close().coAwait()
    }
    if (::peer.isInitialized) {
      peer.close()
    }
  }
}
