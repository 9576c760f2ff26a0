package dev.rpma.vertx.kotlin

import dev.rpma.vertx.ConnectionOptions
import dev.rpma.vertx.MessageChannelOptions
import dev.rpma.vertx.SharedReceiveQueueOptions
import io.vertx.core.json.JsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** The options' builders with named arguments (no device). */
class OptionsTest {

  @Test
  fun aBuilderWithNoArgumentsGivesTheDefaults() {
    assertEquals(ConnectionOptions(), connectionOptionsOf())
    assertEquals(MessageChannelOptions(), messageChannelOptionsOf())
    assertEquals(SharedReceiveQueueOptions(), sharedReceiveQueueOptionsOf())
  }

  @Test
  fun theArgumentsGivenAreSetAndTheRestKeepTheirDefaults() {
    val options = connectionOptionsOf(cqSize = 256, connectTimeoutMs = 5000)

    assertEquals(ConnectionOptions().setCqSize(256).setConnectTimeoutMs(5000), options)
  }

  @Test
  fun theConnectionOptionsBuilderSetsEveryOption() {
    val options = connectionOptionsOf(
      busyPollMicros = 5, completionTimeoutMs = 0, connectTimeoutMs = 5000, cqSize = 128,
      drainBatch = 8, drainBudget = 64, keepAliveMs = 0, rcqSize = 16, rqSize = 32,
      sharedCompletionChannel = true, sqSize = 16, timeoutMs = 500,
    )

    assertNoDefaultLeft(ConnectionOptions().toJson(), options.toJson())
    assertEquals(ConnectionOptions().setBusyPollMicros(5).setCompletionTimeoutMs(0)
      .setConnectTimeoutMs(5000).setCqSize(128).setDrainBatch(8).setDrainBudget(64)
      .setKeepAliveMs(0).setRcqSize(16).setRqSize(32).setSharedCompletionChannel(true)
      .setSqSize(16).setTimeoutMs(500), options)
  }

  @Test
  fun theMessageChannelOptionsBuilderSetsEveryOption() {
    val options = messageChannelOptionsOf(
      receiveBufferSize = 65536, receiveBuffers = 8, sendBuffers = 4, writeQueueMaxSize = 100,
    )

    assertNoDefaultLeft(MessageChannelOptions().toJson(), options.toJson())
    assertEquals(MessageChannelOptions().setReceiveBufferSize(65536).setReceiveBuffers(8)
      .setSendBuffers(4).setWriteQueueMaxSize(100), options)
  }

  @Test
  fun theSharedReceiveQueueOptionsBuilderSetsEveryOption() {
    val options = sharedReceiveQueueOptionsOf(
      drainBatch = 16, drainBudget = 64, rcqSize = 300, rqSize = 512,
    )

    assertNoDefaultLeft(SharedReceiveQueueOptions().toJson(), options.toJson())
    assertEquals(SharedReceiveQueueOptions().setDrainBatch(16).setDrainBudget(64)
      .setRcqSize(300).setRqSize(512), options)
  }

  @Test
  fun aValueTheSetterRefusesIsRefusedNamingTheOption() {
    val e = assertThrows<IllegalArgumentException> { connectionOptionsOf(cqSize = 0) }

    assertTrue(e.message!!.contains("cqSize must be in [1, 65536], got 0"), e.message)
  }

  // Every key of the options' JSON differs from its default: an option the builder lacks
  // (one added to the Java class later) would keep its default and fail here.
  private fun assertNoDefaultLeft(defaults: JsonObject, built: JsonObject) {
    val left = defaults.fieldNames().filter { defaults.getValue(it) == built.getValue(it) }
    assertTrue(left.isEmpty(), "the builder left these options at their defaults: $left")
  }
}
