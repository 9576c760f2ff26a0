package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;

/**
 * Why a connection stopped taking operations, and the errors its operations fail with because
 * of it: each names the operation, the connection and the reason, with the original error as
 * the cause. Loop-confined.
 */
final class CloseReasons {

  private final String description;
  private RpmaConnectionClosedException closeReason;
  private RpmaConnectionClosedException queuePairError;

  CloseReasons(String description) {
    this.description = description;
  }

  /** Why it closed (the first reason wins), or null while it has not. */
  RpmaConnectionClosedException closeReason() {
    return closeReason;
  }

  void closing(RpmaConnectionClosedException reason) {
    if (closeReason == null) {
      closeReason = reason;
    }
  }

  boolean queuePairFailed() {
    return queuePairError != null;
  }

  /** The first error completion: the queue pair is in the error state from now on. */
  RpmaConnectionClosedException queuePairFailed(byte kind, String statusText, Throwable error) {
    queuePairError = new RpmaConnectionClosedException(description + ": " + OpKind.name(kind)
        + " completed with " + statusText + ", which puts the queue pair in the error state:"
        + " the connection takes no more operations", error);
    return queuePairError;
  }

  /** An operation refused, or never posted, because the connection is closed. */
  RpmaConnectionClosedException closedError(byte kind) {
    RpmaConnectionClosedException reason = closeReason != null ? closeReason : queuePairError;
    String message = OpKind.name(kind) + ": " + description + " is closed";
    return reason == null ? new RpmaConnectionClosedException(message)
        : new RpmaConnectionClosedException(message + " (" + reason.getMessage() + ")", reason);
  }

  /** An error completion of an operation that was in flight when the connection closed. */
  RpmaConnectionClosedException inFlightWhenClosed(byte kind, RpmaCompletionException status) {
    if (closeReason == null && queuePairError != null) {
      // flushed by the queue pair error: that error is the cause, the flush status beside it
      RpmaConnectionClosedException flushed = new RpmaConnectionClosedException(OpKind.name(kind)
          + " was in flight when " + queuePairError.getMessage(), queuePairError);
      flushed.addSuppressed(status);
      return flushed;
    }
    String why = closeReason != null ? " (" + closeReason.getMessage() + ")" : "";
    return new RpmaConnectionClosedException(
        OpKind.name(kind) + " was in flight when the connection closed" + why, status);
  }
}
