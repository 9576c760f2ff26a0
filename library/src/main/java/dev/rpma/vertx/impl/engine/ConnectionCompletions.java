package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.Received;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * A connection's completion path after the drain: a completion finds its operation in
 * {@link InFlight}, which completes its Future (and, first, those posted before it without a
 * completion of their own); an error completion while the connection takes
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
  private final Submitter submitter;
  private final Runnable postWaiting;
  private final ConnectionCounters counters;
  /** What an operation fails with once the queue pair failed; made once. */
  private final IntFunction<Throwable> closedErrorByKind;
  private final BooleanSupplier takesOperations;
  private final QueuePairErrors queuePairErrors;
  private LibrpmaConnection conn;

  ConnectionCompletions(String description, InFlight inFlight, CloseReasons reasons,
      Submitter submitter, ConnectionCounters counters, BooleanSupplier takesOperations,
      QueuePairErrors queuePairErrors) {
    this.description = description;
    this.inFlight = inFlight;
    this.reasons = reasons;
    this.submitter = submitter;
    this.postWaiting = submitter::postWaiting; // made once: nothing allocated per completion
    this.counters = counters;
    this.closedErrorByKind = kind -> reasons.closedError((byte) kind);
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
    submitter.collect(); // what the listeners post waits for the end of the batch
    byte kind = inFlight.kind(slot);
    // an error after the connection stopped taking operations (its queue pair failed before,
    // or it is closing) is a flush, not news; asked only of an error: one call less per success
    boolean flushed = status != 0 && !takesOperations.getAsBoolean();
    if (!OpKind.isReceive(kind)) {
      // those posted before it without a completion: done too. Before a success, or before the
      // queue pair's first error, they succeeded; before a flush they may never have run
      counters.completions += inFlight.completeUnsignalledBefore(slot, postWaiting,
          flushed ? closedErrorByKind : null);
    }
    if (status == 0) {
      inFlight.finish(slot, OpKind.isReceive(kind) ? new Received(byteLength, hasImm, imm) : null,
          null, postWaiting);
      return;
    }
    Throwable error = reasons.completionError(kind, status, conn.statusText(status), vendorError,
        !flushed);
    if (!flushed) {
      queuePairErrors.onQueuePairError(kind, status, error);
    }
    inFlight.finish(slot, null, error, postWaiting);
  }

  @Override
  public void batchDelivered() {
    submitter.flushDeferred();
  }

  /** A receive of its queue pair failed on a shared receive queue: as an error completion. */
  void onSharedReceiveError(int status, Throwable error) {
    if (takesOperations.getAsBoolean()) {
      queuePairErrors.onQueuePairError(OpKind.RECV, status, error);
    }
  }
}
