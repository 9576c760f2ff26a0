package dev.rpma.vertx;

/**
 * The connection is closed, or was lost: the operation did not run, or its outcome is unknown
 * because the connection went away while it was in flight (the cause then says how).
 *
 * @since 0.1.0
 */
public class RpmaConnectionClosedException extends RpmaException {

  /**
   * Without a cause: the connection was closed.
   *
   * @param message what did not run, and why
   */
  public RpmaConnectionClosedException(String message) {
    super(message, 0, 0);
  }

  /**
   * With the cause that ended the connection.
   *
   * @param message what did not run, and why
   * @param cause why the connection went away
   */
  public RpmaConnectionClosedException(String message, Throwable cause) {
    super(message, 0, 0, cause);
  }
}
