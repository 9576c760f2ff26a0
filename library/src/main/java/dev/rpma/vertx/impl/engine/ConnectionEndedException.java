package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.RpmaConnectionClosedException;

/**
 * A connection's end (its close handler's argument, the cause its operations fail with): the
 * API's {@link RpmaConnectionClosedException}, same message, with its {@link CloseReason}.
 */
public final class ConnectionEndedException extends RpmaConnectionClosedException {

  private final CloseReason reason;

  ConnectionEndedException(CloseReason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** Why it ended. */
  public CloseReason reason() {
    return reason;
  }

  /** The reason of {@code end} if it is a connection's end; else null. */
  public static CloseReason of(Throwable end) {
    return end instanceof ConnectionEndedException e ? e.reason : null;
  }
}
