package dev.rpma.vertx.impl.seam;

/**
 * One CQ of a connection, as the engine drains it (part of the {@link LibrpmaConnection} seam).
 */
public interface CompletionSource {

  /** The CQ's completion channel fd. */
  int fd();

  /**
   * One batch: consumes the CQ's pending event first if {@code consumeEvent} (rpma_cq_wait,
   * which acks and re-arms the CQ), then polls at most {@code max} completions
   * (rpma_cq_get_wc) and hands each to {@code sink}, in order. Returns how many it polled.
   * Throws if waiting or polling failed for another reason than "nothing pending".
   */
  int drain(boolean consumeEvent, int max, CompletionSink sink);
}
