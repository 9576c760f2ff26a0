package dev.rpma.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;

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

  /** The completion path's counters so far; call on the context. */
  Counters counters();

  /** Disconnects and releases what the driver made (not the peers or regions). */
  Future<Void> close();
}
