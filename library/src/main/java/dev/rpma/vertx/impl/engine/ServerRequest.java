package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection request its server's engine handed out: answered exactly once (accepted,
 * rejected, or deleted by the server's close), with the receives posted on it before that.
 * The receives may be offered from any thread; the rest is the server's loop's.
 */
public final class ServerRequest {

  final LibrpmaRequest librpma;
  private final byte[] privateData;
  private final List<QueuedOp> receives = new ArrayList<>();
  /** Answered, and what the answer made owned or deleted (its queue pair gone). */
  private final Promise<Void> settled = Promise.promise();
  private boolean answered;

  ServerRequest(LibrpmaRequest librpma, byte[] privateData) {
    this.librpma = librpma;
    this.privateData = privateData;
  }

  /** The private data its client sent; empty if none. Do not modify. */
  public byte[] privateData() {
    return privateData;
  }

  /**
   * A receive to post on its queue pair before the accept; false once it was answered (its
   * caller then fails the receive and releases its region).
   */
  public synchronized boolean offer(QueuedOp receive) {
    if (answered) {
      return false;
    }
    receives.add(receive);
    return true;
  }

  /** Marks it answered: the receives offered, or null if it was answered already. */
  synchronized List<QueuedOp> answer() {
    if (answered) {
      return null;
    }
    answered = true;
    List<QueuedOp> taken = List.copyOf(receives);
    receives.clear();
    return taken;
  }

  void settle() {
    settled.tryComplete();
  }

  Future<Void> settled() {
    return settled.future();
  }

  /** Fails receives that were never posted, releasing their regions. */
  public static void failReceives(List<QueuedOp> receives, String why) {
    for (QueuedOp r : receives) {
      r.releaseRegions();
      r.promise().tryFail(new RpmaConnectionClosedException("recv: " + why));
    }
  }
}
