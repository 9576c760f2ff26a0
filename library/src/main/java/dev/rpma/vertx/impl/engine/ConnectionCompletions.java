package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.Received;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.function.BooleanSupplier;

/**
 * A connection's completion path after the drain: a completion finds its operation in
 * {@link InFlight}, which completes its Future; an error completion while the connection takes
 * operations also tells the engine its queue pair is in the error state. Loop-confined.
 */
final class ConnectionCompletions implements CompletionSink {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionCompletions.class);

  /** The engine's answer to an error completion: the queue pair is in the error state. */
  interface QueuePairErrors {
    void onQueuePairError(byte kind, int status, Throwable error);
  }

  private final String description;
  private final InFlight inFlight;
  private final CloseReasons reasons;
  private final Runnable postWaiting;
  private final BooleanSupplier takesOperations;
  private final QueuePairErrors queuePairErrors;
  private LibrpmaConnection conn;

  ConnectionCompletions(String description, InFlight inFlight, CloseReasons reasons,
      Runnable postWaiting, BooleanSupplier takesOperations, QueuePairErrors queuePairErrors) {
    this.description = description;
    this.inFlight = inFlight;
    this.reasons = reasons;
    this.postWaiting = postWaiting;
    this.takesOperations = takesOperations;
    this.queuePairErrors = queuePairErrors;
  }

  /** The connection whose status texts name an error completion; set before its fds are watched. */
  void attach(LibrpmaConnection connection) {
    this.conn = connection;
  }

  @Override
  public void onCompletion(long wrId, int status, int vendorError, int byteLength,
      boolean hasImm, int imm, int qpNum) {
    int slot = inFlight.slotOf(wrId);
    if (slot < 0) {
      LOG.warn(description + ": completion for no pending operation, wr_id " + wrId);
      return;
    }
    byte kind = inFlight.kind(slot);
    if (status == 0) {
      inFlight.finish(slot, OpKind.isReceive(kind) ? new Received(byteLength, hasImm, imm) : null,
          null, postWaiting);
      return;
    }
    boolean open = takesOperations.getAsBoolean();
    Throwable error = reasons.completionError(kind, status, conn.statusText(status), vendorError,
        open);
    if (open) {
      queuePairErrors.onQueuePairError(kind, status, error);
    }
    inFlight.finish(slot, null, error, postWaiting);
  }

  /** A receive of its queue pair failed on a shared receive queue: as an error completion. */
  void onSharedReceiveError(int status, Throwable error) {
    if (takesOperations.getAsBoolean()) {
      queuePairErrors.onQueuePairError(OpKind.RECV, status, error);
    }
  }
}
