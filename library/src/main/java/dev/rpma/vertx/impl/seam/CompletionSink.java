package dev.rpma.vertx.impl.seam;

/** Where a {@link CompletionSource} delivers the completions it polls. */
public interface CompletionSink {

  /**
   * One work completion; the imm value is already in host order; {@code qpNum} is the local
   * queue pair it belongs to (what tells a shared receive queue's connections apart).
   */
  void onCompletion(long wrId, int status, int vendorError, int byteLength, boolean hasImm,
      int imm, int qpNum);

  /**
   * The completions of one poll were all delivered (also after none, or a failure): what their
   * listeners posted may go out now.
   */
  default void batchDelivered() {
  }
}
