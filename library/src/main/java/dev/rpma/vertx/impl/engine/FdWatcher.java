package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.jni.Native;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;

/**
 * A librpma fd in the epoll set of the Vert.x event loop that owns it (Netty's
 * {@link IoEventLoop#register}), level-triggered on EPOLLIN.
 *
 * <p>Readiness runs the handler on the loop, through the owning context, so the handler sees
 * its Vert.x context. The fd stays librpma's: this class never closes it. {@link #close()}
 * resolves after EPOLL_CTL_DEL ({@code unregistered()}); only then may librpma close the fd,
 * or the number could be reused while the loop still watched it.
 */
public final class FdWatcher implements EpollIoHandle, LoopIo.FdWatch {

  private final ContextInternal context;
  private final FileDescriptor fd;
  private final Runnable onReadable;
  private final Promise<Void> registered;
  private final Promise<Void> unregistered;
  private IoRegistration registration;
  private boolean closing;

  private FdWatcher(ContextInternal context, int fd, Runnable onReadable) {
    this.context = context;
    this.fd = new FileDescriptor(fd);
    this.onReadable = onReadable;
    this.registered = context.promise();
    this.unregistered = context.promise();
  }

  /**
   * A watcher of {@code fd} on the context's event loop; nothing happens until {@link #start()}.
   * Track it before starting, so that {@link #unwatch()} can always be awaited.
   */
  public static FdWatcher create(ContextInternal context, int fd, Runnable onReadable) {
    return new FdWatcher(context, fd, onReadable);
  }

  /** Makes the fd non-blocking and adds it to the epoll set; completes once it is there. */
  @Override
  public Future<Void> start() {
    int rc = Native.setNonBlocking(fd.intValue());
    if (rc < 0) {
      registered.fail(new IllegalStateException(
          "cannot make fd " + fd.intValue() + " non-blocking, errno " + (-rc)));
      unregistered.tryComplete();
      return registered.future();
    }
    IoEventLoop loop = (IoEventLoop) context.nettyEventLoop();
    loop.register(this).addListener(f -> context.execute(() -> onRegistered(f)));
    return registered.future();
  }

  private void onRegistered(io.netty.util.concurrent.Future<?> f) {
    if (!f.isSuccess()) {
      registered.fail(f.cause());
      unregistered.tryComplete();
      return;
    }
    registration = (IoRegistration) f.getNow();
    if (closing) {
      registration.cancel();
      registered.fail(new IllegalStateException("closed before it was registered"));
      return;
    }
    try {
      registration.submit(EpollIoOps.EPOLLIN);
      registered.complete();
    } catch (RuntimeException e) {
      registration.cancel();
      registered.fail(e);
    }
  }

  @Override
  public FileDescriptor fd() {
    return fd;
  }

  @Override
  public void handle(IoRegistration registration, IoEvent event) {
    // runs on the loop thread with no Vert.x context: enter the owner's
    try {
      context.dispatch(onReadable);
    } catch (Throwable t) {
      // dispatch reports a handler's exception itself; only a failure of that report gets here
      // (logging that cannot work, e.g. java.util.logging whose first line met the fd limit and
      // cannot load its time zones ever after), and it would end the event loop's thread
    }
  }

  /** Removes the fd from the epoll set; completes after EPOLL_CTL_DEL. Call on the loop. */
  @Override
  public Future<Void> unwatch() {
    if (!closing) {
      closing = true;
      if (registration != null) {
        registration.cancel();
      }
    }
    return unregistered.future();
  }

  @Override
  public void unregistered() {
    unregistered.tryComplete();
  }

  /** The loop is shutting down: it drops the registration; the fd is not ours to close. */
  @Override
  public void close() {
    closing = true;
    unregistered.tryComplete();
  }
}
