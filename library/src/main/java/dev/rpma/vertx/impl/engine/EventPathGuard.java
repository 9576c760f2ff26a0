package dev.rpma.vertx.impl.engine;

import io.vertx.core.Handler;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.function.Consumer;

/**
 * The one guard of every way the event loop calls into something of the library: a watched
 * fd's readiness (CM events, CQs, the drain continuation, a listener), a timer, a task. An
 * exception that escapes such a path is not Vert.x's to report: whatever the path ran for was
 * left half done (a CM event not handled, a drain cut short), and its owner would stay
 * half-alive, holding its fds, with nobody told (seen: a NoClassDefFoundError on the CM event
 * path at the fd limit left 16 connections that never handled their peers' disconnects). So
 * the owner (a connection, a shared queue, a server's listener) is closed with that exception
 * as its reason, once; a later exception of the same owner (an echo of the first, from its
 * teardown) is logged, never rethrown.
 *
 * <p>Wrap each entry once, where the loop hands it over ({@code io.watch(fd,
 * guard.wrap(...))}, {@code setTimer(ms, guard.handler(...))}), not the code beneath it.
 * Loop-confined, as its owner.
 */
public final class EventPathGuard {

  private static final Logger LOG = LoggerFactory.getLogger(EventPathGuard.class);

  private final String owner;
  private final Consumer<Throwable> closeWith;
  private boolean failed;

  /**
   * {@code owner}: what it guards, for the log; {@code closeWith}: closes it with the
   * exception as the reason (called at most once).
   */
  public EventPathGuard(String owner, Consumer<Throwable> closeWith) {
    this.owner = owner;
    this.closeWith = closeWith;
  }

  /** {@code path}, guarded: what the loop is given instead of it. */
  public Runnable wrap(Runnable path) {
    return () -> {
      try {
        path.run();
      } catch (Throwable t) {
        fail(t);
      }
    };
  }

  /** {@code path} (a timer's or a task's handler, a Future's listener), guarded. */
  public <T> Handler<T> handler(Handler<T> path) {
    return event -> {
      try {
        path.handle(event);
      } catch (Throwable t) {
        fail(t);
      }
    };
  }

  /** Whether an exception escaped one of its paths. */
  public boolean failed() {
    return failed;
  }

  private void fail(Throwable t) {
    if (failed) {
      LOG.warn(owner + ": failed again while closing after an exception on its event loop", t);
      return;
    }
    failed = true;
    try {
      closeWith.accept(t);
    } catch (Throwable again) {
      t.addSuppressed(again);
      LOG.error(owner + ": an exception escaped its event loop path, and closing it failed too",
          t);
    }
  }
}
