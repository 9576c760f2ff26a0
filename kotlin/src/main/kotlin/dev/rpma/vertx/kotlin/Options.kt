package dev.rpma.vertx.kotlin

import dev.rpma.vertx.ConnectionOptions
import dev.rpma.vertx.MessageChannelOptions
import dev.rpma.vertx.SharedReceiveQueueOptions

// Builders of the options with named arguments, shaped as vertx-lang-kotlin's generated
// `netClientOptionsOf(...)`: an argument left out (null) keeps the option's default (the
// options' DEFAULT_* constants), and each given one goes through its setter, so it is checked
// as there. Written by hand, not generated: vertx-lang-kotlin-gen resolves here only at 5.0.7
// (not on our 5.2 line), and tried over the library with codegen 5.2.3 its output misses what
// this module needs: it lands in package dev.rpma.kotlin.vertx (not dev.rpma.vertx.kotlin)
// unless the library's codegen module moves, it has no `public` for -Xexplicit-api=strict,
// and its KDoc drops {@value} and {@link} ("default )"). OptionsTest holds these builders to
// the options' JSON keys, so an option added to Java cannot be forgotten here.

/**
 * A [ConnectionOptions] with the given settings, the defaults for the rest:
 * `connectionOptionsOf(cqSize = 256, connectTimeoutMs = 5000)`.
 *
 * @throws IllegalArgumentException for a value its setter refuses, naming the option
 *
 * @since 0.1.0
 */
public fun connectionOptionsOf(
  busyPollMicros: Int? = null,
  completionTimeoutMs: Int? = null,
  connectTimeoutMs: Int? = null,
  cqSize: Int? = null,
  drainBatch: Int? = null,
  drainBudget: Int? = null,
  keepAliveMs: Int? = null,
  rcqSize: Int? = null,
  rqSize: Int? = null,
  sharedCompletionChannel: Boolean? = null,
  sqSize: Int? = null,
  timeoutMs: Int? = null,
): ConnectionOptions = ConnectionOptions().apply {
  busyPollMicros?.let { setBusyPollMicros(it) }
  completionTimeoutMs?.let { setCompletionTimeoutMs(it) }
  connectTimeoutMs?.let { setConnectTimeoutMs(it) }
  cqSize?.let { setCqSize(it) }
  drainBatch?.let { setDrainBatch(it) }
  drainBudget?.let { setDrainBudget(it) }
  keepAliveMs?.let { setKeepAliveMs(it) }
  rcqSize?.let { setRcqSize(it) }
  rqSize?.let { setRqSize(it) }
  sharedCompletionChannel?.let { setSharedCompletionChannel(it) }
  sqSize?.let { setSqSize(it) }
  timeoutMs?.let { setTimeoutMs(it) }
}

/**
 * A [MessageChannelOptions] with the given settings, the defaults for the rest:
 * `messageChannelOptionsOf(receiveBufferSize = 65536)`.
 *
 * @throws IllegalArgumentException for a value its setter refuses, naming the option
 *
 * @since 0.1.0
 */
public fun messageChannelOptionsOf(
  receiveBufferSize: Int? = null,
  receiveBuffers: Int? = null,
  sendBuffers: Int? = null,
  writeQueueMaxSize: Int? = null,
): MessageChannelOptions = MessageChannelOptions().apply {
  receiveBufferSize?.let { setReceiveBufferSize(it) }
  receiveBuffers?.let { setReceiveBuffers(it) }
  sendBuffers?.let { setSendBuffers(it) }
  writeQueueMaxSize?.let { setWriteQueueMaxSize(it) }
}

/**
 * A [SharedReceiveQueueOptions] with the given settings, the defaults for the rest:
 * `sharedReceiveQueueOptionsOf(rqSize = 512, rcqSize = 512)`.
 *
 * @throws IllegalArgumentException for a value its setter refuses, naming the option
 *
 * @since 0.1.0
 */
public fun sharedReceiveQueueOptionsOf(
  drainBatch: Int? = null,
  drainBudget: Int? = null,
  rcqSize: Int? = null,
  rqSize: Int? = null,
): SharedReceiveQueueOptions = SharedReceiveQueueOptions().apply {
  drainBatch?.let { setDrainBatch(it) }
  drainBudget?.let { setDrainBudget(it) }
  rcqSize?.let { setRcqSize(it) }
  rqSize?.let { setRqSize(it) }
}
