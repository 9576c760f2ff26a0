package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoRegistration;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import java.util.concurrent.RejectedExecutionException;

/**
 * What the epoll and the io_uring watcher share: a librpma fd registered with the Netty
 * {@link IoEventLoop} of the context that owns it, readiness run on that context, and removal
 * that resolves only once the loop let go of the fd.
 *
 * <p>The fd stays librpma's: a watcher never closes it. {@link #unwatch()} resolves when Netty
 * calls {@link #unregistered()}: after EPOLL_CTL_DEL on epoll, after the poll's last completion
 * on io_uring; only then may librpma close the fd. Loop-confined, but for {@link #start()}'s
 * and {@link #unwatch()}'s hop.
 */
abstract class LoopFdWatch implements IoHandle, LoopIo.FdWatch {

  final ContextInternal context;
  final int fd;
  private final Runnable onReadable;
  private final Promise<Void> registered;
  private final Promise<Void> unregistered;
  IoRegistration registration;
  /** Set once by unwatch() or the loop's close(): readiness is no longer delivered. */
  boolean closing;

  LoopFdWatch(ContextInternal context, int fd, Runnable onReadable) {
    this.context = context;
    this.fd = fd;
    this.onReadable = onReadable;
    this.registered = context.promise();
    this.unregistered = context.promise();
  }

  /** Starts watching, once registered: EPOLLIN in the epoll set, or the first POLL_ADD. */
  abstract void arm();

  /** Stops watching; Netty calls {@link #unregistered()} once the loop let go of the fd. */
  abstract void disarm();

  /** Makes the fd non-blocking and registers it with the loop; completes once it is watched. */
  @Override
  public final Future<Void> start() {
    // non-blocking: the handlers read until EAGAIN, or read the one event that woke them
    int rc = Native.setNonBlocking(fd);
    if (rc < 0) {
      registered.fail(new IllegalStateException(
          "cannot make fd " + fd + " non-blocking, errno " + (-rc)));
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
      registration.cancel(); // nothing armed: Netty unregisters at once
      registered.fail(new IllegalStateException("closed before it was registered"));
      return;
    }
    try {
      arm();
      registered.complete();
    } catch (RuntimeException e) {
      closing = true;
      registration.cancel();
      registered.fail(e);
    }
  }

  /**
   * The fd is readable: the owner's handler, on the loop, inside the owning context; not once
   * unwatch() was called (the owner is tearing down what the handler would read). Every owner
   * hands over its handler guarded ({@code impl.engine.EventPathGuard}): nothing it throws
   * reaches Vert.x.
   */
  final void readable() {
    if (!delivers()) {
      return;
    }
    try {
      context.dispatch(onReadable);
    } catch (Throwable t) {
      // dispatch reports a handler's exception itself; only a failure of that report gets here
      // (logging that cannot work, e.g. java.util.logging whose first line met the fd limit and
      // cannot load its time zones ever after), and it would end the event loop's thread
    }
  }

  /**
   * Whether readiness still reaches the owner: not once unwatch() began, nor once the loop is
   * shutting down. The loop's {@link #close()} is not enough: Netty's SingleThreadIoEventLoop
   * skips prepareToDestroy() (which closes every handle) when the shutdown begins while the
   * loop runs its tasks, and io_uring's destroy() still reaps completions after that. Vert.x
   * closed every owner before it shuts its loops down: nothing is left to deliver to.
   */
  final boolean delivers() {
    return !closing && !context.nettyEventLoop().isShuttingDown();
  }

  /**
   * Stops watching; completes once the loop let go of the fd. On the loop (else it hops). After
   * the loop has terminated (Vert.x closed) it completes at once: the loop's own teardown let
   * go of every registration ({@link #close()}), and a fd never registered has nothing to let
   * go of. That future is bound to no context: the dead loop could not run its listeners.
   */
  @Override
  public final Future<Void> unwatch() {
    if (!context.nettyEventLoop().inEventLoop()) {
      try {
        context.nettyEventLoop().execute(this::unwatch);
      } catch (RejectedExecutionException loopTerminated) {
        closing = true;
        return Future.succeededFuture();
      }
    } else if (!closing) {
      closing = true;
      if (registration != null) {
        disarm();
      }
    }
    return unregistered.future();
  }

  @Override
  public final void unregistered() {
    unregistered.tryComplete();
  }

  /**
   * The loop is shutting down and drops its registrations: no readiness is delivered from now
   * on, and the loop's own teardown releases the fd; it is not ours to close.
   */
  @Override
  public void close() {
    closing = true;
    unregistered.tryComplete();
  }
}
