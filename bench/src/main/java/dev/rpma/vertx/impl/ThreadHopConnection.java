package dev.rpma.vertx.impl;

import dev.rpma.bench.Counters;
import dev.rpma.bench.Driver;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The design the library replaces, for comparison only: a dedicated thread per CQ blocks in
 * {@code rpma_cq_wait} on the CQ's (blocking) fd, takes completions one at a time with
 * {@code rpma_cq_get_wc}, and hands each to the event loop with {@code runOnContext}, where the
 * operation's Promise is completed. Posting happens on the event loop, as in the library.
 *
 * <p>Lives in the library's package to reach its package-private JNI binding ({@link Native});
 * the connection is made with it directly so that none of the library's completion path (the
 * CQ fd on the loop, the batch drain) is involved. Shutdown is clean: a last write whose wr_id
 * tells the waiting thread to stop is posted, the thread is joined, and only then is the
 * connection disconnected and deleted, so no thread is ever inside librpma on a freed CQ.
 */
public final class ThreadHopConnection implements Driver {

  /** wr_id of the write that stops the waiting thread; window slots are far below it. */
  private static final long STOP_WR_ID = 1L << 40;
  private static final int EVENT_ESTABLISHED = 0;
  private static final int EVENT_CLOSED = 1;
  private static final long SETUP_SECONDS = 120;
  private static final long STOP_SECONDS = 30;

  private final ContextInternal context;
  private final long conn;
  private final long cq;
  private final MemoryRegionImpl local;
  private final RemoteRegionImpl remote;
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

  private ThreadHopConnection(ContextInternal context, long conn, long cq, MemoryRegionImpl local,
      RemoteRegionImpl remote, int slots) {
    this.context = context;
    this.conn = conn;
    this.cq = cq;
    this.local = local;
    this.remote = remote;
    this.pending = new PromiseInternal<?>[slots];
    this.freeSlots = new int[slots];
    for (int slot = slots - 1; slot >= 0; slot--) {
      freeSlots[freeCount++] = slot;
    }
    this.waiter = new Thread(this::awaitCompletions, "thread-hop-cq-waiter");
    // a safety net only: close() stops and joins it; a daemon cannot keep a failed run alive
    this.waiter.setDaemon(true);
  }

  /**
   * Connects to the server with librpma directly, from the calling thread (it blocks: never
   * call on an event loop), and starts the waiting thread. Futures complete on {@code context}.
   */
  public static ThreadHopConnection connect(RpmaPeer clientPeer, MemoryRegion localRegion,
      String address, int port, ConnectionOptions options, Context context) {
    PeerImpl peer = (PeerImpl) clientPeer;
    ContextInternal ctx = (ContextInternal) context;
    // the set-up calls are not thread-safe per peer: run them under the peer's set-up lock
    long c = await(peer.blocking("thread-hop connect", () -> {
      long cfg = Errors.check("rpma_conn_cfg_new", Endpoints.newConnCfg(options));
      try {
        long req = Errors.check("rpma_conn_req_new",
            Native.connReqNew(peer.handle(), address, String.valueOf(port), cfg));
        return Errors.check("rpma_conn_req_connect", Native.connReqConnect(req, null));
      } finally {
        Native.connCfgDelete(cfg);
      }
    }));
    RemoteRegionImpl remote = null;
    try {
      expectEvent(c, EVENT_ESTABLISHED); // the event fd was never made non-blocking: this waits
      byte[] pdata = Native.connPrivateData(c);
      RegionOffer offer = RegionOffer.fromBytes(pdata == null ? new byte[0] : pdata);
      remote = (RemoteRegionImpl) RemoteMemoryRegion.fromDescriptor(offer.regionDescriptor());
      long cq = Errors.check("rpma_conn_get_cq", Native.connCq(c));
      // the CQ fd stays blocking and off the loop: the waiting thread sleeps in rpma_cq_wait
      ThreadHopConnection hop = new ThreadHopConnection(ctx, c, cq, (MemoryRegionImpl) localRegion,
          remote, options.getCqSize());
      hop.waiter.start();
      return hop;
    } catch (RuntimeException e) {
      if (remote != null) {
        remote.close();
      }
      Native.connDisconnect(c);
      Native.connDelete(c);
      throw e;
    }
  }

  private static void expectEvent(long conn, int expected) {
    int event = Native.connNextEvent(conn);
    if (event < 0) {
      throw Errors.rpma("rpma_conn_next_event", event);
    }
    if (event != expected) {
      throw new IllegalStateException("thread-hop connection: expected "
          + Native.connEventString(expected) + ", got " + Native.connEventString(event));
    }
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(SETUP_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("thread-hop connection set-up did not finish", e);
    }
  }

  // ---------------------------------------------------------------- the waiting thread

  /** Blocks for an event, then takes completions one per rpma_cq_get_wc until the CQ is empty. */
  private void awaitCompletions() {
    ByteBuffer wc = ByteBuffer.allocateDirect(WcLayout.SIZE).order(ByteOrder.nativeOrder());
    long wcAddress = Native.directBufferAddress(wc);
    try {
      for (;;) {
        int rc = Native.cqWaitOnce(cq); // acks the event and re-arms the CQ
        if (rc < 0) {
          throw Errors.rpma("rpma_cq_wait", rc);
        }
        wakeups++;
        for (;;) {
          int n = Native.cqDrain(cq, wcAddress, 1, false);
          if (n < 0) {
            throw Errors.rpma("rpma_cq_get_wc", n);
          }
          if (n == 0) {
            break; // empty; the CQ was re-armed before this poll, so nothing is missed
          }
          drainCalls++;
          long wrId = wc.getLong(WcLayout.WR_ID);
          if (wrId == STOP_WR_ID) {
            return;
          }
          int status = wc.getInt(WcLayout.STATUS);
          int vendorError = wc.getInt(WcLayout.VENDOR_ERR);
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
          Native.wcStatusString(status), vendorError));
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

  private Future<Void> post(byte kind, int size) {
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
    int rc = switch (kind) {
      case OpKind.READ -> Native.read(conn, local.handle(), 0, remote.handle(), 0, size, slot);
      case OpKind.WRITE -> Native.write(conn, remote.handle(), 0, local.handle(), 0, size, slot);
      case OpKind.FLUSH -> Native.flush(conn, remote.handle(), 0, size,
          FlushType.VISIBILITY.nativeValue(), slot);
      default -> throw new IllegalArgumentException("operation " + kind);
    };
    if (rc < 0) {
      pending[slot] = null;
      freeSlots[freeCount++] = slot;
      promise.fail(Errors.rpma(OpKind.call(kind), rc));
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
    return post(OpKind.READ, size);
  }

  @Override
  public Future<Void> write(int size) {
    return post(OpKind.WRITE, size);
  }

  @Override
  public Future<Void> flush(int size) {
    return post(OpKind.FLUSH, size);
  }

  @Override
  public Counters counters() {
    return new Counters(completions, drainCalls, wakeups);
  }

  // ---------------------------------------------------------------- shutdown

  /**
   * Stops the waiting thread with a last write, joins it, then disconnects and deletes the
   * connection (on a worker: all of it blocks). Call when nothing else is in flight.
   */
  @Override
  public Future<Void> close() {
    PromiseInternal<Void> stopPosted = context.promise();
    context.runOnContext(v -> {
      int rc = Native.write(conn, remote.handle(), 0, local.handle(), 0, 1, STOP_WR_ID);
      if (rc < 0) {
        stopPosted.fail(Errors.rpma("rpma_write (stop)", rc));
      } else {
        stopPosted.complete();
      }
    });
    return stopPosted.future().compose(v -> context.executeBlocking(() -> {
      waiter.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
      if (waiter.isAlive()) {
        // still inside rpma_cq_wait: deleting the connection would free the CQ under it
        throw new IllegalStateException("the thread-hop waiting thread did not stop");
      }
      Errors.check("rpma_conn_disconnect", Native.connDisconnect(conn));
      expectEvent(conn, EVENT_CLOSED);
      Errors.check("rpma_conn_delete", Native.connDelete(conn));
      remote.close();
      return null;
    }));
  }
}
