package dev.rpma.vertx;

import static dev.rpma.vertx.OptionChecks.inRange;

import io.vertx.codegen.annotations.DataObject;
import io.vertx.codegen.json.annotations.JsonGen;
import io.vertx.core.json.JsonObject;

/**
 * Settings of one side of an {@link RpmaMessageChannel}: the receive pool it posts (and so how
 * much the peer may send it), the send pool, and the write queue.
 *
 * <p>The receive pool is one registered region cut into {@link #getReceiveBuffers()} slices of
 * {@link #getReceiveBufferSize()} bytes, all posted before the peer may send. Both numbers are
 * told to the peer in the connection's private data, so the peer's writes are checked against
 * them: a message larger than the receive buffer size is refused on the sending side. The
 * connection's {@link ConnectionOptions#getRqSize() rqSize} must hold every receive, and its
 * {@link ConnectionOptions#getSqSize() sqSize} the send buffers plus one (for a credit message).
 *
 * <p>A Vert.x data object like {@link ConnectionOptions}: from JSON with the setters' names as
 * keys ({@code {"receiveBufferSize": 65536}}), unknown keys refused, back with
 * {@link #toJson()}; from a shared config with {@link #fromConfig(JsonObject, String)}.
 *
 * @since 0.1.0
 */
@DataObject
@JsonGen(publicConverter = false)
public class MessageChannelOptions {

  /** The fewest receive buffers: the credit rule needs two for data and one for credit. */
  public static final int MIN_RECEIVE_BUFFERS = 4;
  /** The most receive buffers: the count travels in 16 bits. */
  public static final int MAX_RECEIVE_BUFFERS = 0xffff;
  /** The largest receive buffer size, 16 MiB: past it, split messages yourself. */
  public static final int MAX_BUFFER_SIZE = 1 << 24;

  /** The most send buffers. */
  public static final int MAX_SEND_BUFFERS = 0xffff;

  /** The default receive buffer size, 8 KiB. */
  public static final int DEFAULT_RECEIVE_BUFFER_SIZE = 8192;
  /** The default number of receive buffers. */
  public static final int DEFAULT_RECEIVE_BUFFERS = 32;
  /** The default number of send buffers. */
  public static final int DEFAULT_SEND_BUFFERS = 16;
  /** The default initial write queue size, in messages. */
  public static final int DEFAULT_WRITE_QUEUE_MAX_SIZE = 64;

  private int receiveBufferSize = DEFAULT_RECEIVE_BUFFER_SIZE;
  private int receiveBuffers = DEFAULT_RECEIVE_BUFFERS;
  private int sendBuffers = DEFAULT_SEND_BUFFERS;
  private int writeQueueMaxSize = DEFAULT_WRITE_QUEUE_MAX_SIZE;

  /** The defaults: 32 receive buffers of 8 KiB, 16 send buffers, a write queue of 64. */
  public MessageChannelOptions() {
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public MessageChannelOptions(MessageChannelOptions other) {
    this(other.toJson());
  }

  /**
   * The options in {@code json}, the defaults for keys it lacks, each checked by its setter.
   *
   * @param json keys named as the setters ({@code receiveBufferSize}, {@code receiveBuffers},
   *     {@code sendBuffers}, {@code writeQueueMaxSize})
   * @throws IllegalArgumentException for an unknown key, or a value of the wrong type or range,
   *     naming the key
   */
  public MessageChannelOptions(JsonObject json) {
    OptionChecks.keysAndTypes("MessageChannelOptions", json, new MessageChannelOptions().toJson());
    MessageChannelOptionsConverter.fromJson(json, this);
  }

  /**
   * The options kept under {@code key} of a config shared with other settings, as
   * {@link ConnectionOptions#fromConfig(JsonObject, String)}.
   *
   * @param config the whole config
   * @param key where the options are
   * @return the options there, the defaults if the config lacks {@code key}
   * @throws IllegalArgumentException if the value under {@code key} is no JSON object, or has
   *     an unknown key or a bad value
   */
  public static MessageChannelOptions fromConfig(JsonObject config, String key) {
    return new MessageChannelOptions(OptionChecks.section("MessageChannelOptions", config, key));
  }

  /**
   * The size of each receive buffer: the largest message the peer may send to this side.
   *
   * @return bytes
   */
  public int getReceiveBufferSize() {
    return receiveBufferSize;
  }

  /**
   * Sets the size of each receive buffer, the largest message the peer may send to this side.
   *
   * @param receiveBufferSize 1 to {@link #MAX_BUFFER_SIZE} bytes
   * @return these options
   * @throws IllegalArgumentException if out of range
   */
  public MessageChannelOptions setReceiveBufferSize(int receiveBufferSize) {
    inRange("receiveBufferSize", receiveBufferSize, 1, MAX_BUFFER_SIZE);
    this.receiveBufferSize = receiveBufferSize;
    return this;
  }

  /**
   * How many receive buffers this side posts: the most messages the peer can have sent and
   * this side not yet handled (the credit the peer starts from).
   *
   * @return the count
   */
  public int getReceiveBuffers() {
    return receiveBuffers;
  }

  /**
   * Sets how many receive buffers this side posts.
   *
   * @param receiveBuffers {@link #MIN_RECEIVE_BUFFERS} to {@link #MAX_RECEIVE_BUFFERS}, at most
   *     the connection's rqSize
   * @return these options
   * @throws IllegalArgumentException if out of range
   */
  public MessageChannelOptions setReceiveBuffers(int receiveBuffers) {
    inRange("receiveBuffers", receiveBuffers, MIN_RECEIVE_BUFFERS, MAX_RECEIVE_BUFFERS);
    this.receiveBuffers = receiveBuffers;
    return this;
  }

  /**
   * How many registered send buffers (each of the peer's receive buffer size) this side keeps:
   * the most messages it has in flight at once.
   *
   * @return the count
   */
  public int getSendBuffers() {
    return sendBuffers;
  }

  /**
   * Sets how many registered send buffers this side keeps.
   *
   * @param sendBuffers 1 to {@link #MAX_SEND_BUFFERS}, less than the connection's sqSize
   * @return these options
   * @throws IllegalArgumentException if out of range
   */
  public MessageChannelOptions setSendBuffers(int sendBuffers) {
    inRange("sendBuffers", sendBuffers, 1, MAX_SEND_BUFFERS);
    this.sendBuffers = sendBuffers;
    return this;
  }

  /**
   * The initial write queue size: messages written and not yet posted (waiting for credit or a
   * send buffer) beyond which {@link RpmaMessageChannel#writeQueueFull()} is true.
   *
   * @return messages
   */
  public int getWriteQueueMaxSize() {
    return writeQueueMaxSize;
  }

  /**
   * Sets the initial write queue size (see {@link #getWriteQueueMaxSize()}); the channel's
   * {@code setWriteQueueMaxSize} changes it later.
   *
   * @param writeQueueMaxSize at least 1 message
   * @return these options
   * @throws IllegalArgumentException if below 1
   */
  public MessageChannelOptions setWriteQueueMaxSize(int writeQueueMaxSize) {
    inRange("writeQueueMaxSize", writeQueueMaxSize, 1, Integer.MAX_VALUE);
    this.writeQueueMaxSize = writeQueueMaxSize;
    return this;
  }

  /**
   * These options as JSON, with the keys the JSON constructor reads.
   *
   * @return a new object
   */
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    MessageChannelOptionsConverter.toJson(this, json);
    return json;
  }

  @Override
  public String toString() {
    return "MessageChannelOptions" + toJson().encode();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageChannelOptions other && toJson().equals(other.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }
}
