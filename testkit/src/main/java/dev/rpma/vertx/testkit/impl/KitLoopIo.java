package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.impl.loop.ContextClock;
import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engine's {@link LoopIo} on any Vert.x loop, NIO included: the in-JVM device's fds
 * ({@link KitFd}) watched by running their handlers as tasks of the context; time and timers
 * are the context's own, as in production.
 */
final class KitLoopIo implements LoopIo {

  private final KitDevice device;
  private final ContextInternal context;
  private final EngineClock clock;

  KitLoopIo(KitDevice device, ContextInternal context) {
    this.device = device;
    this.context = context;
    this.clock = new ContextClock(context);
  }

  @Override
  public FdWatch watch(int fd, Runnable onReadable) {
    KitFd watched = device.fd(fd);
    return new FdWatch() {
      @Override
      public Future<Void> start() {
        watched.watch(context, onReadable);
        return context.succeededFuture();
      }

      @Override
      public Future<Void> unwatch() {
        watched.unwatch();
        return context.succeededFuture();
      }
    };
  }

  @Override
  public WakeupFd newWakeupFd() {
    AtomicBoolean signalled = new AtomicBoolean();
    KitFd fd = device.newFd(signalled::get);
    return new WakeupFd() {
      @Override
      public int fd() {
        return fd.number();
      }

      @Override
      public void signal() {
        signalled.set(true);
        fd.poke();
      }

      @Override
      public void reset() {
        signalled.set(false);
      }

      @Override
      public void close() {
        device.closeFd(fd);
      }
    };
  }

  @Override
  public EngineClock clock() {
    return clock;
  }
}
