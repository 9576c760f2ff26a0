package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.RpmaConnectionClosedException;

/**
 * A connection's end (its close handler's argument, the cause its operations fail with): the
 * API's {@link RpmaConnectionClosedException}, same message, with its {@link CloseReason}.
 */
public final class ConnectionEndedException extends RpmaConnectionClosedException {

  private final CloseReason reason;
  private final int eventStatus;

  ConnectionEndedException(CloseReason reason, String message, Throwable cause) {
    this(reason, message, cause, 0);
  }

  ConnectionEndedException(CloseReason reason, String message, Throwable cause,
      int eventStatus) {
    super(message, cause);
    this.reason = reason;
    this.eventStatus = eventStatus;
  }

  /**
   * The RDMA CM's status of the event that ended it (a reject's reason, an unreachable's
   * negative errno); 0 if none or not ended by an event.
   */
  public int eventStatus() {
    return eventStatus;
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
