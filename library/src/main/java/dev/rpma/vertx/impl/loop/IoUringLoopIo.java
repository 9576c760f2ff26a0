package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.impl.jni.JniEventFd;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.channel.EventLoop;
import io.vertx.core.internal.ContextInternal;

/**
 * The {@link LoopIo} of a context on Netty's io_uring loop: fds polled by the loop's ring
 * ({@link IoUringFdWatcher}), our eventfds; the same engine, drain, budget and continuation as
 * on epoll.
 */
public final class IoUringLoopIo implements LoopIo {

  private final ContextInternal context;
  private final EngineClock clock;

  public IoUringLoopIo(ContextInternal context) {
    this.context = context;
    this.clock = new ContextClock(context);
  }

  @Override
  public FdWatch watch(int fd, Runnable onReadable) {
    return IoUringFdWatcher.create(context, fd, onReadable);
  }

  @Override
  public EngineClock clock() {
    return clock;
  }

  @Override
  public WakeupFd newWakeupFd() {
    return new NextPhaseWakeup(JniEventFd.open(), context.nettyEventLoop());
  }

  /**
   * The drain continuation's eventfd, signalled from the loop's task phase. Signalled at once,
   * its armed poll would complete within the same I/O phase (Netty's io_uring handler reaps
   * completions for up to 128 rounds), and the continuation would drain a second budget before
   * the loop's tasks; the continuation belongs to the next I/O phase, as on epoll.
   */
  private static final class NextPhaseWakeup implements WakeupFd {

    private final JniEventFd eventFd;
    private final EventLoop loop;
    private final Runnable signalNow = this::signalNow;
    private boolean closed;

    NextPhaseWakeup(JniEventFd eventFd, EventLoop loop) {
      this.eventFd = eventFd;
      this.loop = loop;
    }

    @Override
    public int fd() {
      return eventFd.fd();
    }

    @Override
    public void signal() {
      loop.execute(signalNow);
    }

    private void signalNow() {
      if (!closed) { // closed meanwhile: its number may be someone else's by now
        eventFd.signal();
      }
    }

    @Override
    public void reset() {
      eventFd.reset();
    }

    @Override
    public void close() {
      closed = true; // on the loop, as signalNow
      eventFd.close();
    }
  }
}
