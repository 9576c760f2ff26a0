package dev.rpma.vertx.impl;

import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandle;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.VertxInternal;

/** Finds the event-loop context a connection or endpoint belongs to, and checks it is epoll. */
public final class LoopContexts {

  static final String HOW_TO_ENABLE = "vertx-rpma needs Vert.x on Netty's native epoll transport:"
      + " create Vert.x with new VertxOptions().setPreferNativeTransport(true) and put"
      + " io.netty:netty-transport-native-epoll (classifier linux-x86_64) on the class path";

  private LoopContexts() {
  }

  /** Fails with a clear message unless Vert.x runs its event loops on native epoll. */
  public static void requireEpoll(Vertx vertx) {
    if (!Epoll.isAvailable()) {
      throw new IllegalStateException(HOW_TO_ENABLE + " (Epoll unavailable: "
          + Epoll.unavailabilityCause() + ")");
    }
    if (!vertx.isNativeTransportEnabled()) {
      throw new IllegalStateException(HOW_TO_ENABLE + " (this Vert.x uses NIO)");
    }
  }

  /**
   * The context a connection or server made by the caller lives on: the caller's own if it is
   * an event-loop context; for a worker (or virtual-thread) caller, an event-loop context on
   * the same Netty loop that shares the caller's {@code CloseFuture}, so that undeploying the
   * worker verticle closes what it made while the fds stay on an event loop.
   */
  public static ContextInternal eventLoopContext(Vertx vertx, ContextInternal current) {
    VertxInternal vx = (VertxInternal) vertx;
    ContextInternal ctx = current.isEventLoopContext() ? current : vx.contextBuilder()
        .withThreadingModel(ThreadingModel.EVENT_LOOP)
        .withEventLoop(current.nettyEventLoop())
        .withCloseFuture(current.closeFuture())
        .withClassLoader(current.classLoader())
        .withWorkerPool(current.workerPool())
        .build();
    if (!(ctx.nettyEventLoop() instanceof IoEventLoop loop)
        || !loop.isCompatible(EpollIoHandle.class)) {
      throw new IllegalStateException(HOW_TO_ENABLE + " (the event loop is not epoll)");
    }
    return ctx;
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
