package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.seam.EngineClock;
import io.vertx.core.Handler;
import io.vertx.core.internal.ContextInternal;

/**
 * The {@link EngineClock} of a context in production: {@code System.nanoTime} and the
 * context's Vert.x timers, which fire on its loop. The only implementation loaded outside the
 * tests, so the drain's clock read stays one monomorphic call.
 */
public final class ContextClock implements EngineClock {

  private final ContextInternal context;

  public ContextClock(ContextInternal context) {
    this.context = context;
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public long setTimer(long delayMs, Handler<Long> handler) {
    return context.setTimer(delayMs, handler);
  }

  @Override
  public long setPeriodic(long periodMs, Handler<Long> handler) {
    return context.setPeriodic(periodMs, handler);
  }

  @Override
  public void cancelTimer(long id) {
    context.owner().cancelTimer(id);
  }
}
