package dev.rpma.vertx.impl.loop;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.vertx.core.internal.ContextInternal;

/**
 * A librpma fd in the epoll set of the Vert.x event loop that owns it (Netty's
 * {@link IoEventLoop#register}), level-triggered on EPOLLIN: a handler that leaves the fd
 * readable is called again at the loop's next I/O phase.
 *
 * <p>{@link #unwatch()} resolves after EPOLL_CTL_DEL ({@code unregistered()}); only then may
 * librpma close the fd, or the number could be reused while the loop still watched it. The
 * io_uring loop's counterpart is {@link IoUringFdWatcher}; {@link LoopIo} picks one per context.
 */
public final class FdWatcher extends LoopFdWatch implements EpollIoHandle {

  private final FileDescriptor descriptor;

  private FdWatcher(ContextInternal context, int fd, Runnable onReadable) {
    super(context, fd, onReadable);
    this.descriptor = new FileDescriptor(fd);
  }

  /**
   * A watcher of {@code fd} on the context's event loop; nothing happens until {@link #start()}.
   * Track it before starting, so that {@link #unwatch()} can always be awaited.
   */
  public static FdWatcher create(ContextInternal context, int fd, Runnable onReadable) {
    return new FdWatcher(context, fd, onReadable);
  }

  @Override
  void arm() {
    registration.submit(EpollIoOps.EPOLLIN); // EPOLL_CTL_ADD, level-triggered
  }

  @Override
  void disarm() {
    registration.cancel(); // EPOLL_CTL_DEL, then unregistered()
  }

  @Override
  public FileDescriptor fd() {
    return descriptor;
  }

  @Override
  public void handle(IoRegistration registration, IoEvent event) {
    // runs on the loop thread with no Vert.x context: readable() enters the owner's
    readable();
  }
}
