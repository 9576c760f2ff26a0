package dev.rpma.vertx;

/**
 * A connect failed: the connection never opened. Names the server's address, the step that
 * failed and the option that bounded it; its subclasses say why ({@link
 * RpmaNothingListensException}, {@link RpmaConnectionRejectedException}, {@link
 * RpmaUnreachableException}); this class itself is any other reason (the connection was lost
 * while being made, say).
 *
 * <p>It extends {@link RpmaConnectionClosedException} because connect failures were reported
 * as that type before these existed: a {@code catch} of it keeps catching them.
 *
 * @since 0.1.0
 */
public class RpmaConnectException extends RpmaConnectionClosedException {

  /** The server's host, as the connect named it. */
  private final String host;
  /** The server's port. */
  private final int port;
  /** The step of the connect that failed. */
  private final ConnectStep step;
  /** The option that bounds that step, e.g. {@code connectTimeoutMs}. */
  private final String option;

  /**
   * Made by the library when a connect fails.
   *
   * @param message what failed, why, and what to do
   * @param host the server's address, as given to connect
   * @param port the server's port
   * @param step the step that failed
   * @param option the {@link ConnectionOptions} key that bounded the step, e.g.
   *     {@code connectTimeoutMs}
   * @param cause what led to it, or null
   */
  public RpmaConnectException(String message, String host, int port, ConnectStep step,
      String option, Throwable cause) {
    super(message, cause);
    this.host = host;
    this.port = port;
    this.step = step;
    this.option = option;
  }

  /**
   * The server's address.
   *
   * @return the address given to connect
   */
  public String host() {
    return host;
  }

  /**
   * The server's port.
   *
   * @return the port given to connect
   */
  public int port() {
    return port;
  }

  /**
   * The step that failed.
   *
   * @return e.g. {@link ConnectStep#RESOLVE_ADDRESS}
   */
  public ConnectStep step() {
    return step;
  }

  /**
   * The option that bounded the step.
   *
   * @return a {@link ConnectionOptions} JSON key, e.g. {@code connectTimeoutMs}
   */
  public String option() {
    return option;
  }
}
