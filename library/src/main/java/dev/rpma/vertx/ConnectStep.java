package dev.rpma.vertx;

/**
 * The step of a connect that failed ({@link RpmaConnectException#step()}).
 *
 * @since 0.1.0
 */
public enum ConnectStep {
  /** Resolving the server's address to a local RDMA device and the server's hardware address. */
  RESOLVE_ADDRESS("resolve address"),
  /** Resolving the route to the server. */
  RESOLVE_ROUTE("resolve route"),
  /** The RDMA CM's request and the server's answer, until the connection is established. */
  ESTABLISH("establish");

  private final String text;

  ConnectStep(String text) {
    this.text = text;
  }

  /**
   * The step as messages name it.
   *
   * @return e.g. {@code resolve address}
   */
  @Override
  public String toString() {
    return text;
  }
}
