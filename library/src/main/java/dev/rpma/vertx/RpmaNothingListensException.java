package dev.rpma.vertx;

/**
 * Nothing listens on the port: the server's RDMA CM rejected the connect request itself (IB CM
 * reject reason 8, invalid service ID), no application saw it. Start the server first, check
 * the address and port, or retry while a server starts.
 *
 * @since 0.1.0
 */
public class RpmaNothingListensException extends RpmaConnectException {

  /**
   * Made by the library.
   *
   * @param message what failed and what to do
   * @param host the server's address
   * @param port the server's port
   * @param option the option that bounded the connect
   */
  public RpmaNothingListensException(String message, String host, int port, String option) {
    super(message, host, port, ConnectStep.ESTABLISH, option, null);
  }
}
