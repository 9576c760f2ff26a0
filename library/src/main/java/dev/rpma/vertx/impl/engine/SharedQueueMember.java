package dev.rpma.vertx.impl.engine;

/**
 * A connection attached to a shared receive queue, as the queue's engine sees it: what a
 * receive that arrived on its queue pair completes with, and who hears of an error there.
 */
public interface SharedQueueMember {

  /** What the receive's Future completes with: the message's size and imm, naming the member. */
  Object received(int byteLength, boolean hasImm, int imm);

  /**
   * A receive failed on this member's queue pair (the queue pair is in the error state now, as
   * after any error completion): the connection closes with that reason.
   */
  void onReceiveError(int status, Throwable error);

  /** For messages: "connection accepted on port 7400", say. */
  String description();
}
