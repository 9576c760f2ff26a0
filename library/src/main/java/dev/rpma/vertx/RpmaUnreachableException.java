package dev.rpma.vertx;

/**
 * The server could not be reached: its address was not resolved, no route leads to it, or its
 * host did not answer the RDMA CM, within the connect timeout ({@code connectTimeoutMs}, which
 * bounds the whole connect). {@link #step()} says where it stopped.
 *
 * @since 0.1.0
 */
public class RpmaUnreachableException extends RpmaConnectException {

  /**
   * Made by the library.
   *
   * @param message what failed and what to check
   * @param host the server's address
   * @param port the server's port
   * @param step where it stopped
   * @param option the option that bounded the step
   * @param cause the librpma failure, or null
   */
  public RpmaUnreachableException(String message, String host, int port, ConnectStep step,
      String option, Throwable cause) {
    super(message, host, port, step, option, cause);
  }
}
