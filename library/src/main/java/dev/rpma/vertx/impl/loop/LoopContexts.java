package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.uring.IoUringIoHandle;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.VertxInternal;

/**
 * Finds the event-loop context a connection or endpoint belongs to, checks that its loop is one
 * the library can watch fds on (Netty's native epoll or io_uring), and picks the matching
 * {@link LoopIo}.
 */
public final class LoopContexts {

  static final String HOW_TO_ENABLE = "vertx-rpma needs Vert.x on a native Netty transport,"
      + " epoll or io_uring: for epoll, create Vert.x with"
      + " new VertxOptions().setPreferNativeTransport(true) and"
      + " io.netty:netty-transport-native-epoll (classifier linux-x86_64 or linux-aarch_64, both"
      + " brought by vertx-rpma)"
      + " on the class path; for io_uring, with"
      + " Vertx.builder().with(options).withTransport(Transport.IO_URING).build() and"
      + " io.netty:netty-transport-native-io_uring and netty-transport-classes-io_uring (optional"
      + " in vertx-rpma as in vertx-core: add them, the native with your platform's classifier;"
      + " Linux 5.9+ with io_uring allowed)";

  private LoopContexts() {
  }

  /** Fails with a clear message unless Vert.x runs its event loops on a native transport. */
  public static void requireNativeTransport(Vertx vertx) {
    if (!vertx.isNativeTransportEnabled()) {
      Throwable why = vertx.unavailableNativeTransportCause();
      throw new IllegalStateException(HOW_TO_ENABLE + " (this Vert.x uses NIO"
          + (why != null ? "; the native transport is unavailable: " + why : "") + ")");
    }
  }

  /**
   * The context a connection or server made by the caller lives on: the caller's own if it is
   * an event-loop context; for a worker (or virtual-thread) caller, an event-loop context on
   * the same Netty loop that shares the caller's {@code CloseFuture}, so that undeploying the
   * worker verticle closes what it made while the fds stay on an event loop.
   */
  public static ContextInternal eventLoopContext(Vertx vertx, ContextInternal current) {
    ContextInternal ctx = eventLoopContextOf(vertx, current);
    loopIo(ctx); // refuses a loop that is neither epoll nor io_uring
    return ctx;
  }

  /** The same context, its loop not checked (for a provider that watches any loop). */
  public static ContextInternal eventLoopContextOf(Vertx vertx, ContextInternal current) {
    VertxInternal vx = (VertxInternal) vertx;
    return current.isEventLoopContext() ? current : vx.contextBuilder()
        .withThreadingModel(ThreadingModel.EVENT_LOOP)
        .withEventLoop(current.nettyEventLoop())
        .withCloseFuture(current.closeFuture())
        .withClassLoader(current.classLoader())
        .withWorkerPool(current.workerPool())
        .build();
  }

  /** How fds are watched on the context's loop: its epoll set, or polls on its io_uring ring. */
  public static LoopIo loopIo(ContextInternal ctx) {
    EventLoop loop = ctx.nettyEventLoop();
    if (loop instanceof IoEventLoop io) {
      if (io.isCompatible(EpollIoHandle.class)) {
        return new EpollLoopIo(ctx);
      }
      if (isIoUring(io)) {
        return new IoUringLoopIo(ctx);
      }
    }
    throw new IllegalStateException(HOW_TO_ENABLE + " (the event loop "
        + loop.getClass().getName() + " is neither epoll nor io_uring)");
  }

  /** False also when Netty's io_uring classes are not on the class path (an epoll-only app). */
  private static boolean isIoUring(IoEventLoop loop) {
    try {
      return loop.isCompatible(IoUringIoHandle.class);
    } catch (LinkageError e) {
      return false;
    }
  }

  /** {@code result}, completed on the caller's context (a worker's own, say) if that differs. */
  public static <T> Future<T> onCaller(ContextInternal caller, ContextInternal ctx,
      Future<T> result) {
    if (caller == ctx) {
      return result;
    }
    PromiseInternal<T> onCaller = caller.promise();
    result.onComplete(onCaller);
    return onCaller.future();
  }
}
