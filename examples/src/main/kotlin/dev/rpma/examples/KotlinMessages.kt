package dev.rpma.examples

import dev.rpma.vertx.kotlin.MessageChannel
import dev.rpma.vertx.kotlin.acceptChannel
import dev.rpma.vertx.kotlin.connectChannel
import dev.rpma.vertx.kotlin.openRpmaPeer
import io.vertx.core.buffer.Buffer
import io.vertx.kotlin.coroutines.CoroutineVerticle
import io.vertx.kotlin.coroutines.coAwait
import kotlin.system.exitProcess
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/**
 * Messaging in Kotlin on the message channel (`vertx-rpma-kotlin`): an echo server verticle
 * sends every message back; a client verticle sends numbered messages with a suspending
 * `send` while a second coroutine collects the echoes as a Flow, then checks each one. The
 * writer runs ahead of the echoes only as far as credit and the write queues allow: nothing to
 * size, no receive to post, no receiver-not-ready.
 *
 * ```
 * ./dev example kotlin-messages --messages=20000
 * ```
 */
fun main(args: Array<String>) {
  ExampleLogging.configure()
  if (Settings.helpRequested(args)) {
    println(USAGE)
    return
  }
  val settings = try {
    Settings.parse(args)
  } catch (e: IllegalArgumentException) {
    System.err.println("kotlin-messages: ${e.message}\n$USAGE")
    exitProcess(2)
  }
  val address = settings.deviceAddress()
  val port = settings.integer("port", 7303, 1, 65535)
  val count = settings.integer("messages", 10_000, 1, 100_000_000)
  exitProcess(runBlocking { run(address, port, count) })
}

private const val USAGE = """usage: KotlinMessagesKt [--option=value]...
  --address   RDMA device IP       (default: ${'$'}RPMA_TEST_IP)
  --port      echo server port     (default: 7303)
  --messages  messages to echo     (default: 10000)"""

private suspend fun run(address: String, port: Int, count: Int): Int {
  val vertx = NativeVertx.create()
  try {
    val server = EchoChannelServer(address, port)
    vertx.deployVerticle(server).coAwait()
    val client = EchoChannelClient(address, port, count)
    vertx.deployVerticle(client).coAwait()
    val report = withTimeout(240_000) { client.result.await() }
    println(report)
    return if (report.startsWith("kotlin-messages: PASSED")) 0 else 1
  } catch (e: Exception) {
    println("kotlin-messages: FAILED: $e")
    return 1
  } finally {
    vertx.close().coAwait()
  }
}

/** Accepts message channels and echoes every message back, one coroutine per channel. */
private class EchoChannelServer(val address: String, val port: Int) : CoroutineVerticle() {
  override suspend fun start() {
    val server = vertx.openRpmaPeer(address).listen(port, address)
    launch {
      for (request in server.requests) {
        val channel = request.acceptChannel()
        launch {
          try {
            channel.messages().collect { channel.send(it) }
          } catch (e: Exception) {
            // the client closed while echoes were on their way: nothing more to echo
          } finally {
            channel.close()
          }
        }
      }
    }
  }
}

/** Sends [count] numbered messages and checks the echoes, in order, as they come back. */
private class EchoChannelClient(val address: String, val port: Int, val count: Int) :
  CoroutineVerticle() {
  val result = CompletableDeferred<String>()

  override suspend fun start() {
    val peer = vertx.openRpmaPeer(address)
    val channel = peer.connectChannel(port, address)
    launch { result.complete(runCatching { exchange(channel) }.getOrElse { "FAILED: $it" }) }
  }

  private suspend fun exchange(channel: MessageChannel): String {
    val started = System.nanoTime()
    var echoed = 0
    val checker = async {
      channel.messages().collect { echo ->
        check(echo == message(echoed)) { "echo $echoed came back as '$echo'" }
        if (++echoed == count) channel.close() // ends the Flow
      }
    }
    for (i in 0 until count) channel.send(message(i))
    checker.await()
    val seconds = (System.nanoTime() - started) / 1e9
    return """kotlin-messages: PASSED
      |  messages     $count sent with a suspending send, echoed, collected as a Flow
      |  verified     $echoed of $count echoes, in order, intact
      |  throughput   ${"%.0f".format(count / seconds)} round trips/s (${"%.2f".format(seconds)} s), all in flight as credit allows
      |  channel      ${channel.stats()}""".trimMargin()
  }

  private fun message(i: Int): Buffer = Buffer.buffer("message $i of $count")
}
