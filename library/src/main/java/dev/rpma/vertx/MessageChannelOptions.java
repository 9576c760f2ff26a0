package dev.rpma.vertx;

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
 */
public class MessageChannelOptions {

  /** The fewest receive buffers: the credit rule needs two for data and one for credit. */
  public static final int MIN_RECEIVE_BUFFERS = 4;
  /** The most receive buffers: the count travels in 16 bits. */
  public static final int MAX_RECEIVE_BUFFERS = 0xffff;
  /** The largest receive buffer size, 16 MiB: past it, split messages yourself. */
  public static final int MAX_BUFFER_SIZE = 1 << 24;

  private int receiveBufferSize = 8192;
  private int receiveBuffers = 32;
  private int sendBuffers = 16;
  private int writeQueueMaxSize = 64;

  /** The defaults: 32 receive buffers of 8 KiB, 16 send buffers, a write queue of 64. */
  public MessageChannelOptions() {
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public MessageChannelOptions(MessageChannelOptions other) {
    this.receiveBufferSize = other.receiveBufferSize;
    this.receiveBuffers = other.receiveBuffers;
    this.sendBuffers = other.sendBuffers;
    this.writeQueueMaxSize = other.writeQueueMaxSize;
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
    check("receiveBufferSize", receiveBufferSize, 1, MAX_BUFFER_SIZE);
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
    check("receiveBuffers", receiveBuffers, MIN_RECEIVE_BUFFERS, MAX_RECEIVE_BUFFERS);
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
   * @param sendBuffers 1 to 65535, less than the connection's sqSize
   * @return these options
   * @throws IllegalArgumentException if out of range
   */
  public MessageChannelOptions setSendBuffers(int sendBuffers) {
    check("sendBuffers", sendBuffers, 1, 0xffff);
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
    check("writeQueueMaxSize", writeQueueMaxSize, 1, Integer.MAX_VALUE);
    this.writeQueueMaxSize = writeQueueMaxSize;
    return this;
  }

  private static void check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be " + min + " to " + max + ", got "
          + value);
    }
  }

  @Override
  public String toString() {
    return "MessageChannelOptions{receiveBufferSize=" + receiveBufferSize + ", receiveBuffers="
        + receiveBuffers + ", sendBuffers=" + sendBuffers + ", writeQueueMaxSize="
        + writeQueueMaxSize + "}";
  }
}
