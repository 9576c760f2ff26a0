package dev.rpma.vertx.impl.seam;

import io.vertx.core.Handler;

/**
 * The engine's time, a seam beside {@link LoopIo} (which hands it out): the clock the drain
 * reads for its time budget, a poll's size and a busy-poll spin, and the timers it sets on its
 * loop (the connect and close deadlines, the {@link Watchdog}, {@link KeepAlive}). In
 * production {@code ContextClock}: {@code System.nanoTime} and the context's Vert.x timers; the
 * host tests run it in virtual time, advanced by the test, so that what a timer must not do yet
 * is shown without sleeping. Loop-confined: read and set on the owning context's loop.
 */
public interface EngineClock {

  /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}; per poll: no garbage. */
  long nanoTime();

  /** Runs {@code handler} once on the loop after {@code delayMs} (at least 1); its id. */
  long setTimer(long delayMs, Handler<Long> handler);

  /** Runs {@code handler} on the loop every {@code periodMs} (at least 1), first after one. */
  long setPeriodic(long periodMs, Handler<Long> handler);

  /** The timer of {@code id} fires no more (nothing if it already fired or was cancelled). */
  void cancelTimer(long id);
}
