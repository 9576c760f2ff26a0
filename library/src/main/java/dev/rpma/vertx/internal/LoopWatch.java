package dev.rpma.vertx.internal;

import dev.rpma.vertx.impl.engine.FdWatcher;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;

/**
 * An fd watched on a Vert.x event loop the way the library watches a CQ's: level-triggered
 * EPOLLIN in the loop's own epoll set, the handler run on the context. The fd stays the
 * caller's; close it only after {@link #stop()} completed.
 */
public final class LoopWatch {

  private final FdWatcher watcher;

  private LoopWatch(FdWatcher watcher) {
    this.watcher = watcher;
  }

  /** Nothing is watched until {@link #start()}; call on the context, {@code onReadable} runs there. */
  public static LoopWatch create(Context context, int fd, Runnable onReadable) {
    return new LoopWatch(FdWatcher.create((ContextInternal) context, fd, onReadable));
  }

  /** Completes once the fd is in the loop's epoll set. */
  public Future<Void> start() {
    return watcher.start();
  }

  /** Takes the fd out of the epoll set; completes after EPOLL_CTL_DEL. Call on the context. */
  public Future<Void> stop() {
    return watcher.unwatch();
  }
}
