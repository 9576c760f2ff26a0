package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;

/**
 * Why a connection ends (each reason names the connection and, as its cause, the original
 * error; its type is a {@link CloseReason}), and the errors its operations fail with because
 * of it. Loop-confined.
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
  RpmaConnectionClosedException queuePairFailed(byte kind, int status, String statusText,
      Throwable error) {
    String hint = StatusHints.hint(kind, status);
    queuePairError = closed(CloseReason.QUEUE_PAIR_ERROR,
        ": " + OpKind.name(kind) + " completed with " + statusText
        + (hint != null ? " (" + hint + ")" : "")
        + ", which puts the queue pair in the error state: the connection takes no more"
        + " operations", error);
    return queuePairError;
  }

  // ---- why a connection ends

  RpmaConnectionClosedException notEstablished(int connectTimeoutMs) {
    return closed(CloseReason.NOT_ESTABLISHED,
        ": not established within " + connectTimeoutMs + " ms", null);
  }

  RpmaConnectionClosedException cannotWatch(Throwable cause) {
    return closed(CloseReason.SET_UP_FAILED,
        ": cannot watch its fds on the event loop: " + cause.getMessage(), cause);
  }

  RpmaConnectionClosedException setUpFailed(Throwable cause) {
    // the cause's text in the message: a user reads this one line (the accept's failure)
    return closed(CloseReason.SET_UP_FAILED, ": set-up failed: " + cause.getMessage(), cause);
  }

  RpmaConnectionClosedException keepAliveFailed(Throwable cause) {
    return closed(CloseReason.KEEPALIVE,
        ": a keepalive probe failed (idle connection; its peer or the path is"
        + " gone): " + cause.getMessage(), cause);
  }

  RpmaConnectionClosedException eventsFailed(Throwable cause) {
    return closed(CloseReason.EVENTS_FAILED, ": reading its events failed", cause);
  }

  RpmaConnectionClosedException completionQueueFailed(Throwable cause) {
    return closed(CloseReason.EVENTS_FAILED, ": its completion queue failed", cause);
  }

  /** An exception escaped a path of its on the event loop (a bug, or a class not loadable). */
  RpmaConnectionClosedException failedOnLoop(Throwable cause) {
    return closed(CloseReason.FAILED_ON_LOOP, ": failed on its event loop (" + cause + ")", cause);
  }

  /**
   * The post that was to report a run of operations posted without a completion of their own
   * (selective signalling) was refused, and none came after it: their outcome cannot be known.
   */
  RpmaConnectionClosedException postsStranded(Throwable cause) {
    return closed(CloseReason.FAILED_ON_LOOP, ": a post was refused after operations posted"
        + " without a completion of their own; their outcome cannot be known ("
        + cause.getMessage() + ")", cause);
  }

  /** An exception on the loop while it was closing already: beside the reason it closes for. */
  void alsoFailed(Throwable cause) {
    if (closeReason != null) {
      closeReason.addSuppressed(cause);
    }
  }

  /** Its peer is known gone by other means than the device: the cluster's word, {@code why}. */
  RpmaConnectionClosedException peerGone(String why) {
    return closed(CloseReason.NODE_LEFT, ": " + why, null);
  }

  /** Closed on this side; {@code by} names who closed it (null: its user). */
  RpmaConnectionClosedException closedByUser(String by) {
    return closed(CloseReason.CLOSED_LOCALLY,
        " was closed " + (by != null ? by : "by its user (RpmaConnection.close())"), null);
  }

  /** A CM event that ends the connection from the other side (or the network). */
  RpmaConnectionClosedException ended(CmEvent event) {
    return ended(event, 0);
  }

  /** The same, with the RDMA CM's status of the event (see {@link ConnectionEndedException}). */
  RpmaConnectionClosedException ended(CmEvent event, int status) {
    CloseReason reason = switch (event) {
      case CLOSED -> CloseReason.CLOSED_BY_PEER;
      case LOST -> CloseReason.LOST;
      case REJECTED -> CloseReason.REJECTED_BY_PEER;
      case UNREACHABLE -> CloseReason.UNREACHABLE;
      default -> CloseReason.OTHER_EVENT;
    };
    String what = switch (event) {
      case CLOSED -> " was closed by the peer";
      case LOST -> " was lost";
      case REJECTED -> " was rejected by the peer";
      case UNREACHABLE -> ": the peer is unreachable";
      default -> ": connection event " + event;
    };
    return new ConnectionEndedException(reason, description + what, null, status);
  }

  /**
   * The watchdog's reason. Sends in flight stall alike whether the peer posted no receive for
   * them (receiver-not-ready: librpma asks for rnr_retry 7, retried without end) or the peer is
   * gone (its host down, the path cut: rxe retries unanswered packets without end; an RNIC
   * stops after retry_count 7 with IBV_WC_RETRY_EXC_ERR, within seconds); from here the two
   * look the same, so the reason names both and how to tell them apart.
   */
  RpmaConnectionClosedException stalled(int timeoutMs, int inFlight, int sends, boolean probe) {
    String why = probe ? ": the keepalive probe of this idle connection was not answered (the"
        + " peer's host may be down, or the path cut)"
        : sends == 0 ? ": the device or the network path stopped answering"
        : " (" + sends + " of them sends): either receiver-not-ready (the peer has posted no"
            + " receive for a send, retried until this timeout; the peer must post its"
            + " receives before this side sends) or the peer gone (its host down or the path"
            + " cut: Soft-RoCE retries unanswered packets without end; an RNIC usually fails"
            + " them first with a transport retry error, unless this timeout is shorter). To"
            + " tell them apart: a peer whose process still runs and answers means"
            + " receiver-not-ready; so does this device's counter of receiver-not-ready NAKs"
            + " rising while the sends wait (rxe: /sys/class/infiniband/DEVICE/ports/1/"
            + "hw_counters/rcvd_rnr_err); a counter that stays still means the peer is gone";
    return closed(probe ? CloseReason.KEEPALIVE : CloseReason.WATCHDOG,
        ": no completion for " + timeoutMs + " ms with " + inFlight
        + " operations in flight" + why, null);
  }

  private RpmaConnectionClosedException closed(CloseReason reason, String what,
      Throwable cause) {
    return new ConnectionEndedException(reason, description + what, cause);
  }

  // ---- what operations fail with

  /** An operation refused, or never posted, because the connection is closed. */
  RpmaConnectionClosedException closedError(byte kind) {
    RpmaConnectionClosedException reason = closeReason != null ? closeReason : queuePairError;
    String message = OpKind.name(kind) + ": " + description + " is closed";
    return reason == null ? new RpmaConnectionClosedException(message)
        : new RpmaConnectionClosedException(message + " (" + reason.getMessage() + ")", reason);
  }

  /**
   * What an operation's error completion fails it with: the completion's status while the
   * connection takes operations ({@code open}), else the reason it was in flight at a close.
   */
  Throwable completionError(byte kind, int status, String statusText, int vendorError,
      boolean open) {
    RpmaCompletionException e = new RpmaCompletionException(OpKind.name(kind), status,
        statusText, vendorError, StatusHints.hint(kind, status));
    return open ? e : inFlightWhenClosed(kind, e);
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
