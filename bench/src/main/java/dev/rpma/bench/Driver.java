package dev.rpma.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;

/**
 * One way of doing RDMA operations from a Vert.x event loop: the library, or the thread-per-CQ
 * design it replaces. The harness calls every method on {@link #context()} and measures from the
 * call to the completion of the returned Future, which completes on that context.
 *
 * <p>Operations act on the first {@code size} bytes of the local and the remote region.
 */
public interface Driver {

  /** The name in the results: {@code vertx-rpma} or {@code thread-hop}. */
  String name();

  /** The event-loop context the Futures complete on. */
  Context context();

  Future<Void> read(int size);

  Future<Void> write(int size);

  /** A flush to visibility (on rxe: an RDMA read under the hood). */
  Future<Void> flush(int size);

  /**
   * The threads besides the event loop that do this design's work, whose CPU time counts as
   * the design's (CpuTime): none for the library, the waiting thread for the thread-hop one.
   */
  default List<Thread> ownThreads() {
    return List.of();
  }

  /** The completion path's counters so far; call on the context. */
  Counters counters();

  /** Disconnects and releases what the driver made (not the peers or regions). */
  Future<Void> close();
}
