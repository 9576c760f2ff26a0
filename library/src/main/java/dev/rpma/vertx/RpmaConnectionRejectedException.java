package dev.rpma.vertx;

/**
 * The server's application rejected the connect request ({@link RpmaConnectionRequest#reject()},
 * or its server closed before answering; IB CM reject reason 28, consumer defined).
 *
 * @since 0.1.0
 */
public class RpmaConnectionRejectedException extends RpmaConnectException {

  /**
   * Made by the library.
   *
   * @param message what failed
   * @param host the server's address
   * @param port the server's port
   * @param option the option that bounded the connect
   */
  public RpmaConnectionRejectedException(String message, String host, int port, String option) {
    super(message, host, port, ConnectStep.ESTABLISH, option, null);
  }
}
