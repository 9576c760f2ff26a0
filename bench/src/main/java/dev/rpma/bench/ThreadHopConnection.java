package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.internal.RawCompletion;
import dev.rpma.vertx.internal.RawConnection;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The design the library replaces, for comparison only: a dedicated thread per CQ blocks in
 * {@code rpma_cq_wait} on the CQ's (blocking) fd, takes completions one at a time with
 * {@code rpma_cq_get_wc}, and hands each to the event loop with {@code runOnContext}, where the
 * operation's Promise is completed. Posting happens on the event loop, as in the library.
 *
 * <p>Built on the library's {@code internal} {@link RawConnection}, so none of the library's
 * completion path (the CQ fd on the loop, the batch drain) is involved. Shutdown is clean: a
 * last write whose wr_id tells the waiting thread to stop is posted, the thread is joined, and
 * only then is the connection disconnected and deleted, so no thread is ever inside librpma on
 * a freed CQ.
 */
public final class ThreadHopConnection implements Driver {

  /** wr_id of the write that stops the waiting thread; window slots are far below it. */
  private static final long STOP_WR_ID = 1L << 40;
  private static final long STOP_SECONDS = 30;
  /** The waiting thread's name (the profile picks its samples by it). */
  static final String WAITER_NAME = "thread-hop-cq-waiter";

  private enum Kind { READ, WRITE, FLUSH }

  private final ContextInternal context;
  private final RawConnection conn;
  private final MemoryRegion local;
  private final RemoteMemoryRegion remote;
  private final Thread waiter;

  // the pending table: touched on the event loop only
  private final PromiseInternal<?>[] pending;
  private final int[] freeSlots;
  private int freeCount;
  private long completions;

  // written by the waiting thread only, read on the loop (single writer: ++ is safe)
  private volatile long wakeups;
  private volatile long drainCalls;
  private volatile RuntimeException waiterFailure;

  private ThreadHopConnection(ContextInternal context, RawConnection conn, MemoryRegion local,
      RemoteMemoryRegion remote, int slots) {
    this.context = context;
    this.conn = conn;
    this.local = local;
    this.remote = remote;
    this.pending = new PromiseInternal<?>[slots];
    this.freeSlots = new int[slots];
    for (int slot = slots - 1; slot >= 0; slot--) {
      freeSlots[freeCount++] = slot;
    }
    this.waiter = new Thread(this::awaitCompletions, WAITER_NAME);
    // a safety net only: close() stops and joins it; a daemon cannot keep a failed run alive
    this.waiter.setDaemon(true);
  }

  /**
   * Connects to the server (set-up on a worker; this thread waits: never call on an event
   * loop), and starts the waiting thread. Futures complete on {@code context}.
   */
  public static ThreadHopConnection connect(RpmaPeer clientPeer, MemoryRegion localRegion,
      String address, int port, ConnectionOptions options, Context context) {
    RawConnection c = Fixture.await(RawConnection.connect(clientPeer, address, port, options));
    RemoteMemoryRegion remote = null;
    try {
      RegionOffer offer = RegionOffer.fromBytes(c.remotePrivateData());
      remote = RemoteMemoryRegion.fromDescriptor(offer.regionDescriptor());
      ThreadHopConnection hop = new ThreadHopConnection((ContextInternal) context, c,
          localRegion, remote, options.getCqSize());
      hop.waiter.start();
      return hop;
    } catch (RuntimeException e) {
      if (remote != null) {
        remote.close();
      }
      Fixture.await(c.close());
      throw e;
    }
  }

  // ---------------------------------------------------------------- the waiting thread

  private void awaitCompletions() {
    RawCompletion wc = new RawCompletion();
    try {
      for (;;) {
        conn.awaitCompletionEvent(); // acks the event and re-arms the CQ
        wakeups++;
        // empty when it returns false; the CQ was re-armed before this poll, so nothing is missed
        while (conn.poll(wc)) {
          drainCalls++;
          long wrId = wc.wrId();
          if (wrId == STOP_WR_ID) {
            return;
          }
          int status = wc.status();
          int vendorError = wc.vendorError();
          context.runOnContext(v -> complete((int) wrId, status, vendorError));
        }
      }
    } catch (RuntimeException e) {
      waiterFailure = e;
      context.runOnContext(v -> failPending(e));
    }
  }

  // ---------------------------------------------------------------- on the event loop

  private void complete(int slot, int status, int vendorError) {
    PromiseInternal<?> promise = pending[slot];
    pending[slot] = null;
    freeSlots[freeCount++] = slot;
    completions++;
    if (status == 0) {
      promise.tryComplete(null);
    } else {
      promise.tryFail(new RpmaCompletionException("operation", status,
          RawConnection.statusText(status), vendorError));
    }
  }

  private void failPending(RuntimeException cause) {
    for (int slot = 0; slot < pending.length; slot++) {
      if (pending[slot] != null) {
        pending[slot].tryFail(cause);
        pending[slot] = null;
        freeSlots[freeCount++] = slot;
      }
    }
  }

  private Future<Void> post(Kind op, int size) {
    if (!context.inThread()) {
      return context.failedFuture(new IllegalStateException("post on the connection's loop"));
    }
    if (waiterFailure != null) {
      return context.failedFuture(waiterFailure);
    }
    if (freeCount == 0) {
      return context.failedFuture(new IllegalStateException("more in flight than the CQ holds"));
    }
    int slot = freeSlots[--freeCount];
    PromiseInternal<Void> promise = context.promise();
    pending[slot] = promise;
    try {
      switch (op) {
        case READ -> conn.read(local, remote, size, slot);
        case WRITE -> conn.write(remote, local, size, slot);
        case FLUSH -> conn.flush(remote, FlushType.VISIBILITY, size, slot);
      }
    } catch (RuntimeException e) {
      pending[slot] = null;
      freeSlots[freeCount++] = slot;
      promise.fail(e);
    }
    return promise.future();
  }

  @Override
  public String name() {
    return "thread-hop";
  }

  @Override
  public Context context() {
    return context;
  }

  @Override
  public Future<Void> read(int size) {
    return post(Kind.READ, size);
  }

  @Override
  public Future<Void> write(int size) {
    return post(Kind.WRITE, size);
  }

  @Override
  public Future<Void> flush(int size) {
    return post(Kind.FLUSH, size);
  }

  /** The waiting thread: its CPU time is part of this design's (it takes every completion). */
  @Override
  public List<Thread> ownThreads() {
    return List.of(waiter);
  }

  @Override
  public Counters counters() {
    return new Counters(completions, drainCalls, wakeups);
  }

  // ---------------------------------------------------------------- shutdown

  @Override
  public Future<Void> close() {
    PromiseInternal<Void> stopPosted = context.promise();
    context.runOnContext(v -> {
      try {
        conn.write(remote, local, 1, STOP_WR_ID);
        stopPosted.complete();
      } catch (RuntimeException e) {
        stopPosted.fail(e);
      }
    });
    return stopPosted.future().compose(v -> context.executeBlocking(() -> {
      waiter.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
      if (waiter.isAlive()) {
        // still inside rpma_cq_wait: deleting the connection would free the CQ under it
        throw new IllegalStateException("the thread-hop waiting thread did not stop");
      }
      return null;
    })).compose(v -> conn.close()).eventually(remote::close);
  }
}
