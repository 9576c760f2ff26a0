package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaQueueClosedException;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.util.collection.IntObjectHashMap;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * One shared receive queue on its event loop: its receive CQ's fd (and a drain continuation's
 * wake-up fd) on the loop, drained like a connection's CQ ({@link CompletionQueue},
 * {@link DrainContinuation}); its receives ({@link SharedReceives}); and the connections
 * attached to it, by queue pair number, which is how a completion says whose message it
 * carries (librpma's completions of a shared queue name no connection: pmem/rpma#977).
 *
 * <p>A queue pair number is unique only while its queue pair exists: the kernel may give it to
 * the next one. So a member is detached only after its queue pair was destroyed
 * (rpma_conn_delete) and every completion then in the CQ delivered ({@link
 * CompletionQueue#drainOut}: all of its messages are there, ahead of any a new queue pair with
 * its number receives); and a new member whose number is still taken drains the CQ out the same
 * way before it takes the number over.
 *
 * <p>Attaching, detaching and closing change what a completion is matched to and drain the CQ:
 * asked for from a listener of a completion (a receive's callback closing its connection), they
 * run once that drain has returned ({@link CompletionQueue#outsideDrain}), never inside it.
 * A member's messages are held until it is usable ({@link HeldMessages}).
 *
 * <p>Thread contract: every method on the owning context's loop; the attached connections live
 * on the same loop (checked when they attach), so attaching precedes, in program order, any
 * drain that could see their first message.
 */
public final class SharedQueueEngine implements CompletionSink {

  private static final Logger LOG = LoggerFactory.getLogger(SharedQueueEngine.class);

  private final ContextInternal context;
  private final String description;
  private final LoopIo io;
  private final SetupCalls setup;
  private final int drainBatch;
  private final int drainBudget;
  private final ConnectionCounters counters = new ConnectionCounters();
  private final SharedReceives receives;
  private final OperationMetrics metrics;
  private final IntObjectHashMap<SharedQueueMember> members = new IntObjectHashMap<>();
  private final HeldMessages held = new HeldMessages();
  private final List<LoopIo.FdWatch> watches = new ArrayList<>();
  private final Promise<Void> closed;
  /** Its fds' readiness: an exception escaping a drain closes the queue. */
  private final EventPathGuard guard;
  /** Its owner's close, run when it failed (the queue and what is attached are closed). */
  private Runnable onFailed = () -> { };
  private LibrpmaSharedQueue queue;
  private CompletionQueue cq;
  private DrainContinuation continuation;
  /** Set when it stops taking receives: the user's close, or its CQ failed. */
  private RpmaQueueClosedException closeReason;
  private boolean closeStarted;

  public SharedQueueEngine(ContextInternal context, String description, LoopIo io,
      SetupCalls setup, int rqSize, int rcqSize, int drainBatch, int drainBudget,
      OperationMetrics metrics) {
    this.context = context;
    this.description = description;
    this.io = io;
    this.setup = setup;
    this.drainBatch = drainBatch;
    this.drainBudget = drainBudget;
    this.metrics = MetricsUntilClosed.gate(metrics); // nothing reaches them after closed()
    this.receives = new SharedReceives(rqSize, rcqSize, counters, this.metrics);
    this.closed = context.promise();
    this.guard = new EventPathGuard(description, this::failedOnLoop);
  }

  /** What closes its owner once it failed: its CQ, or an exception on its loop path. */
  public void onFailed(Runnable closeOwner) {
    this.onFailed = closeOwner;
  }

  /** Puts the receive CQ's fd on the loop; completes once it is there. */
  public Future<Void> start(LibrpmaSharedQueue librpmaQueue) {
    this.queue = librpmaQueue;
    receives.attach(librpmaQueue);
    try {
      continuation = new DrainContinuation(io.newWakeupFd(), this::drainNow);
      CompletionSource rcq = librpmaQueue.receiveCq();
      cq = new CompletionQueue(rcq, this, counters, io.clock(), drainBatch, drainBudget,
          continuation::request, this::onCompletionQueueFailure);
      return watch(continuation.fd(), continuation::onReadable)
          .compose(v -> watch(rcq.fd(), cq::onReadable))
          .onSuccess(v -> metrics.opened());
    } catch (RuntimeException e) {
      return context.failedFuture(e);
    }
  }

  private Future<Void> watch(int fd, Runnable onReadable) {
    LoopIo.FdWatch watch = io.watch(fd, guard.wrap(onReadable));
    watches.add(watch);
    return watch.start();
  }

  private void drainNow() {
    if (cq != null) {
      cq.drainNow();
    }
  }

  // ---------------------------------------------------------------- members

  /**
   * A connection's queue pair now takes its messages from this queue; they are held until
   * {@link #usable} says the connection takes operations.
   */
  public void attach(int qpNum, SharedQueueMember member) {
    held.hold(member);
    outsideDrain(() -> {
      if (members.containsKey(qpNum)) {
        drainOut(); // a destroyed queue pair's last messages still carry this number
      }
      members.put(qpNum, member);
    });
  }

  /** The member's connection is established (or ended): its messages are delivered now. */
  public void usable(SharedQueueMember member) {
    outsideDrain(() -> held.release(member));
  }

  /**
   * Its queue pair is destroyed: delivers every message it received, in order, then forgets its
   * number. Asked for during a drain, it runs once that drain has returned.
   */
  public void detach(int qpNum, SharedQueueMember member) {
    outsideDrain(() -> {
      drainOut();
      held.release(member); // never usable (its accept failed, say): what arrived is delivered
      if (members.get(qpNum) == member) {
        members.remove(qpNum);
      }
    });
  }

  /** Delivers every completion in the CQ now: at most one per receive posted. */
  private void drainOut() {
    if (cq != null) {
      cq.drainOut(receives.posted());
    }
  }

  private void outsideDrain(Runnable action) {
    if (cq != null) {
      cq.outsideDrain(action);
    } else {
      action.run();
    }
  }

  /** Connections attached (their queue pairs not yet destroyed). */
  public int memberCount() {
    return members.size();
  }

  // ---------------------------------------------------------------- receives

  /** Posts (or queues) a receive; its region is held, and this takes the hold over. */
  public void submit(HeldRegion local, long offset, long length, PromiseInternal<?> promise) {
    if (closeReason != null) {
      local.release();
      promise.tryFail(closedError());
      return;
    }
    receives.submit(local, offset, length, promise);
  }

  @Override
  public void onCompletion(long wrId, int status, int vendorError, int byteLength,
      boolean hasImm, int imm, int qpNum) {
    int slot = receives.slotOf(wrId);
    if (slot < 0) {
      LOG.warn(description + ": completion for no posted receive, wr_id " + wrId);
      return;
    }
    SharedQueueMember member = members.get(qpNum);
    if (status == 0) {
      if (member != null) {
        HeldMessages.Queue waitsIn = held.of(member);
        Object message = member.received(byteLength, hasImm, imm);
        if (waitsIn == null) {
          receives.finish(slot, message, null);
        } else {
          receives.finishHeld(slot, message, waitsIn);
        }
      } else {
        receives.finish(slot, null, new IllegalStateException(description + ": a message arrived"
            + " on queue pair " + Integer.toUnsignedString(qpNum) + ", which is not attached"));
      }
      return;
    }
    String from = member != null ? member.description() : "queue pair "
        + Integer.toUnsignedString(qpNum);
    Throwable error = new RpmaCompletionException("recv on " + description + " from " + from,
        status, queue.statusText(status), vendorError);
    receives.finish(slot, null, error);
    if (member != null) {
      member.onReceiveError(status, error);
    }
  }

  private void onCompletionQueueFailure(RuntimeException error) {
    fail(new RpmaQueueClosedException(description + ": its receive CQ failed ("
        + error.getMessage() + "); close it and make a new one", error));
  }

  private void failedOnLoop(Throwable error) {
    fail(new RpmaQueueClosedException(description + ": failed on its event loop (" + error
        + "); it is closed, make a new one", error));
  }

  /**
   * It takes and delivers no more: its receives fail with the reason, its fds leave the loop
   * (a stopped CQ left readable would be handed over at every I/O phase), and its owner closes
   * it with what is attached. Its deletion waits, as always, for the last hold.
   */
  private void fail(RpmaQueueClosedException reason) {
    if (closeReason == null) {
      closeReason = reason;
    }
    if (cq != null) {
      cq.stop();
    }
    receives.failAll(this::closedError);
    for (LoopIo.FdWatch w : watches) {
      w.unwatch();
    }
    onFailed.run();
  }

  private RpmaQueueClosedException closedError() {
    return new RpmaQueueClosedException("recv: " + closeReason.getMessage(), closeReason);
  }

  public CompletionStats stats() {
    return counters.snapshot();
  }

  /** Receives posted on the device and not completed yet. */
  public int postedReceives() {
    return receives.posted();
  }

  // ---------------------------------------------------------------- closing

  /** Takes no receive from now on (those already given stay until {@link #close()}). */
  public void stopTaking() {
    if (closeReason == null) {
      closeReason = new RpmaQueueClosedException(description + " is closed");
    }
  }

  /**
   * Once no connection uses the queue any more: delivers what completed, fails the receives
   * still posted or waiting ({@link RpmaQueueClosedException}: no queue pair can consume them
   * now, so the device writes no more into their regions), takes the fds off the loop, and
   * only then deletes the queue on a worker (librpma closes its CQ's fd).
   */
  public Future<Void> close() {
    if (closeStarted) {
      return closed.future();
    }
    closeStarted = true;
    stopTaking();
    outsideDrain(this::finishClose);
    return closed.future();
  }

  private void finishClose() {
    if (!members.isEmpty()) {
      LOG.warn(description + ": closing with " + members.size() + " connections attached");
    }
    drainOut();
    held.releaseAll();
    if (cq != null) {
      cq.stop();
    }
    receives.failAll(this::closedError);
    List<Future<Void>> unwatched = new ArrayList<>();
    for (LoopIo.FdWatch w : watches) {
      unwatched.add(w.unwatch());
    }
    Future.join(unwatched)
        .transform(ar -> {
          if (continuation != null) {
            continuation.close();
          }
          return queue != null ? setup.run(context, queue::delete) : context.succeededFuture();
        })
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.warn(description + ": deleting the queue failed", ar.cause());
          }
          metrics.closed();
          closed.tryComplete();
        });
  }
}
