package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.impl.jni.JniEventFd;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.internal.ContextInternal;

/**
 * The {@link LoopIo} of a context on Netty's epoll loop: fds in the loop's epoll set
 * ({@link FdWatcher}), our eventfds.
 */
public final class EpollLoopIo implements LoopIo {

  private final ContextInternal context;
  private final EngineClock clock;

  public EpollLoopIo(ContextInternal context) {
    this.context = context;
    this.clock = new ContextClock(context);
  }

  @Override
  public FdWatch watch(int fd, Runnable onReadable) {
    return FdWatcher.create(context, fd, onReadable);
  }

  @Override
  public EngineClock clock() {
    return clock;
  }

  @Override
  public WakeupFd newWakeupFd() {
    return JniEventFd.open();
  }
}
