package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.RpmaException;

/** Where a completion queue delivers what it drains. */
public interface CompletionSink {

  /** One work completion; the imm value is already in host order. */
  public void onCompletion(long wrId, int status, int vendorError, int byteLength, boolean hasImm,
      int imm);

  /** Waiting for or polling the CQ failed for a reason other than "nothing pending". */
  public void onCompletionQueueFailure(RpmaException error);
}
