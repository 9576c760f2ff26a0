package dev.rpma.vertx;

/**
 * The connection is closed, or was lost: the operation did not run, or its outcome is unknown
 * because the connection went away while it was in flight (the cause then says how).
 */
public class RpmaConnectionClosedException extends RpmaException {

  public RpmaConnectionClosedException(String message) {
    super(message, 0, 0);
  }

  public RpmaConnectionClosedException(String message, Throwable cause) {
    super(message, 0, 0, cause);
  }
}
