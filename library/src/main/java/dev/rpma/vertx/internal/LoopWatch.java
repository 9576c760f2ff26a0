package dev.rpma.vertx.internal;

import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;

/**
 * An fd watched on a Vert.x event loop the way the library watches a CQ's: level-triggered
 * EPOLLIN in the loop's own epoll set, or a poll on an io_uring loop's ring armed again after
 * each wake-up (level triggered too); the handler runs on the context. The fd stays the
 * caller's; close it only after {@link #stop()} completed.
 */
public final class LoopWatch {

  private final LoopIo.FdWatch watcher;

  private LoopWatch(LoopIo.FdWatch watcher) {
    this.watcher = watcher;
  }

  /** Nothing is watched until {@link #start()}; call on the context, {@code onReadable} runs there. */
  public static LoopWatch create(Context context, int fd, Runnable onReadable) {
    return new LoopWatch(LoopContexts.loopIo((ContextInternal) context).watch(fd, onReadable));
  }

  /** Completes once the loop watches the fd. */
  public Future<Void> start() {
    return watcher.start();
  }

  /**
   * Stops watching; completes after EPOLL_CTL_DEL, or after the io_uring poll's last
   * completion. Call on the context.
   */
  public Future<Void> stop() {
    return watcher.unwatch();
  }
}
