package dev.rpma.vertx.impl.engine;

import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The messages of shared-queue connections that are not usable yet, held back until they are.
 *
 * <p>A server's queue pair can receive as soon as the accept went out (rpma_conn_req_connect),
 * and its client may send the moment its own side is established: the message can be in the
 * queue's receive CQ before the server's loop handled its ESTABLISHED event. Delivered then, it
 * would name a connection that refuses every operation (a reply to it would fail) and whose
 * accept Future has not completed. So a member is held from its attach until it is usable
 * ({@link #release}: established, or failed and closing), and its messages wait here, in the
 * order they arrived: their receives are finished on the device (room freed, metrics ended),
 * only their Futures wait. Nothing is allocated for a usable member's messages.
 * Loop-confined.
 */
final class HeldMessages {

  /** The held messages of one member, in arrival order. */
  static final class Queue {
    private final ArrayDeque<Held> messages = new ArrayDeque<>();

    void add(PromiseInternal<?> promise, HeldRegion region, Object message) {
      messages.add(new Held(promise, region, message));
    }

    /** Completes them in order, also those added meanwhile (by a listener's drain). */
    private void completeAll() {
      Held m;
      while ((m = messages.poll()) != null) {
        PendingOps.complete(m.promise(), m.region(), m.message(), null);
      }
    }
  }

  private record Held(PromiseInternal<?> promise, HeldRegion region, Object message) {
  }

  private final Map<SharedQueueMember, Queue> held = new IdentityHashMap<>();

  /** From now on {@code member}'s messages wait until {@link #release}. */
  void hold(SharedQueueMember member) {
    held.putIfAbsent(member, new Queue());
  }

  /** Where a message of {@code member} waits, or null if it is delivered at once. */
  Queue of(SharedQueueMember member) {
    return held.isEmpty() ? null : held.get(member);
  }

  /**
   * Delivers {@code member}'s held messages, in order, and its later ones at once. Its queue
   * goes only once empty: a message that a listener's drain (a close's, say) brings meanwhile
   * joins the queue instead of overtaking the ones still in it.
   */
  void release(SharedQueueMember member) {
    Queue q = held.get(member);
    if (q != null) {
      q.completeAll();
      held.remove(member);
    }
  }

  /** Delivers every held message (the queue is closing: they arrived, so they are delivered). */
  void releaseAll() {
    for (SharedQueueMember member : held.keySet().toArray(new SharedQueueMember[0])) {
      release(member);
    }
  }
}
