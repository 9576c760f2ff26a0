package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;

/**
 * A connection's timers on its loop, each an entry guarded by its {@link EventPathGuard}: the
 * connect deadline (until ESTABLISHED), the {@link Watchdog} and {@link KeepAlive} (while it is
 * open), and the close deadline (how long a close waits for the peer's CLOSED), all on the
 * loop's {@link EngineClock}. Loop-confined.
 */
final class ConnectionTimers {

  private final EngineClock clock;
  private final EventPathGuard guard;
  private final Watchdog watchdog;
  private final KeepAlive keepAlive;
  private long connectTimer = -1;
  private long closeTimer = -1;

  ConnectionTimers(EngineClock clock, EventPathGuard guard, Watchdog watchdog,
      KeepAlive keepAlive) {
    this.clock = clock;
    this.guard = guard;
    this.watchdog = watchdog;
    this.keepAlive = keepAlive;
  }

  /** {@code onTimeout} runs after {@code ms} unless {@link #established()} came first. */
  void connectDeadline(int ms, Runnable onTimeout) {
    connectTimer = clock.setTimer(ms, guard.handler(id -> {
      connectTimer = -1;
      onTimeout.run();
    }));
  }

  /** ESTABLISHED: no connect deadline any more; the watchdog and keepalive start. */
  void established() {
    cancel(connectTimer);
    connectTimer = -1;
    watchdog.start();
    keepAlive.start();
  }

  /** A close waiting for the peer's answer: {@code onTimeout} runs if none came in {@code ms}. */
  void closeDeadline(int ms, Runnable onTimeout) {
    closeTimer = clock.setTimer(ms, guard.handler(id -> {
      closeTimer = -1;
      onTimeout.run();
    }));
  }

  /** Whether a keepalive probe is out, unanswered (what the watchdog's reason names). */
  boolean probing() {
    return keepAlive.probing();
  }

  /** The connection is closed: no timer fires any more. */
  void stopAll() {
    cancel(closeTimer);
    cancel(connectTimer);
    closeTimer = connectTimer = -1;
    watchdog.stop();
    keepAlive.stop();
  }

  private void cancel(long id) {
    if (id != -1) {
      clock.cancelTimer(id);
    }
  }
}
