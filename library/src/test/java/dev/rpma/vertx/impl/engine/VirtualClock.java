package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import io.vertx.core.Handler;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * An {@link EngineClock} in virtual time: it stands still until the test advances it, and an
 * advance fires the timers that fell due on the way, in the order of their due times (those due
 * at the same time in the order they were set), each at its due time, on the caller's thread
 * (the engine's loop, in the engine tests). What a timer must not do yet is so shown without
 * sleeping, and what it does at its deadline exactly at it. As Vert.x, refuses a delay under
 * 1 ms, fires a periodic timer first one period after it was set, and fires no timer cancelled
 * (also from inside a handler that fires at the same time).
 */
final class VirtualClock implements EngineClock {

  private static final class Timer {
    final long id;
    final long periodNanos; // 0: once
    final Handler<Long> handler;
    long due;
    long order;
    boolean cancelled;

    Timer(long id, long periodNanos, Handler<Long> handler) {
      this.id = id;
      this.periodNanos = periodNanos;
      this.handler = handler;
    }
  }

  /** Not 0: a drain takes 0 for "not spinning", and System.nanoTime may well be anywhere. */
  private long now = TimeUnit.HOURS.toNanos(1);
  private long nextId;
  private long nextOrder;
  private final PriorityQueue<Timer> due = new PriorityQueue<>(
      Comparator.<Timer>comparingLong(t -> t.due).thenComparingLong(t -> t.order));
  private final Map<Long, Timer> live = new HashMap<>();

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public long setTimer(long delayMs, Handler<Long> handler) {
    return add(delayMs, 0, handler);
  }

  @Override
  public long setPeriodic(long periodMs, Handler<Long> handler) {
    return add(periodMs, TimeUnit.MILLISECONDS.toNanos(periodMs), handler);
  }

  @Override
  public void cancelTimer(long id) {
    Timer timer = live.remove(id);
    if (timer != null) {
      timer.cancelled = true;
      due.remove(timer);
    }
  }

  /** Moves time on by {@code ms}, firing what falls due on the way (on this thread). */
  void advanceMs(long ms) {
    advanceNanos(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  /** Moves time on by {@code nanos}, firing what falls due on the way (on this thread). */
  void advanceNanos(long nanos) {
    if (nanos < 0) {
      throw new IllegalArgumentException("time runs forward: " + nanos);
    }
    long until = now + nanos;
    Timer next;
    while ((next = due.peek()) != null && next.due <= until) {
      due.poll();
      now = next.due;
      if (next.periodNanos > 0) {
        schedule(next, now + next.periodNanos);
      } else {
        live.remove(next.id);
      }
      next.handler.handle(next.id);
    }
    now = until;
  }

  /** The timers set and neither fired (once) nor cancelled. */
  int pendingTimers() {
    return live.size();
  }

  private long add(long delayMs, long periodNanos, Handler<Long> handler) {
    if (delayMs < 1) {
      throw new IllegalArgumentException("Cannot schedule a timer with delay < 1 ms");
    }
    Timer timer = new Timer(nextId++, periodNanos, handler);
    live.put(timer.id, timer);
    schedule(timer, now + TimeUnit.MILLISECONDS.toNanos(delayMs));
    return timer.id;
  }

  private void schedule(Timer timer, long at) {
    timer.due = at;
    timer.order = nextOrder++;
    due.add(timer);
  }
}
