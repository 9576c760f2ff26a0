package dev.rpma.vertx;

/**
 * A message larger than the peer's receive buffers: refused before anything is sent (a channel
 * does not split messages, so that one write is one message on the peer).
 *
 * @since 0.1.0
 */
public final class MessageTooLargeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The size of the message refused. */
  private final int messageSize;
  /** The peer's receive buffer size. */
  private final int peerBufferSize;

  /**
   * A refusal naming both sizes and the fix.
   *
   * @param messageSize the size of the message refused
   * @param peerBufferSize the peer's receive buffer size
   */
  public MessageTooLargeException(int messageSize, int peerBufferSize) {
    super("a message of " + messageSize + " bytes is larger than the peer's receive buffers ("
        + peerBufferSize + " bytes): split it into messages of at most " + peerBufferSize
        + " bytes, or have the peer set MessageChannelOptions.setReceiveBufferSize(>= "
        + messageSize + ")");
    this.messageSize = messageSize;
    this.peerBufferSize = peerBufferSize;
  }

  /**
   * The size of the message refused.
   *
   * @return bytes
   */
  public int messageSize() {
    return messageSize;
  }

  /**
   * The peer's receive buffer size, the largest message it takes.
   *
   * @return bytes
   */
  public int peerBufferSize() {
    return peerBufferSize;
  }
}
