package dev.rpma.vertx.impl;

import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandle;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
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
   * The caller's event-loop context if it runs on one; otherwise a new event-loop context, so
   * that completions never run on a worker or foreign thread.
   */
  public static ContextInternal eventLoopContext(Vertx vertx) {
    VertxInternal vx = (VertxInternal) vertx;
    ContextInternal current = vx.getOrCreateContext();
    ContextInternal ctx = current.isEventLoopContext() ? current : vx.createEventLoopContext();
    if (!(ctx.nettyEventLoop() instanceof IoEventLoop loop)
        || !loop.isCompatible(EpollIoHandle.class)) {
      throw new IllegalStateException(HOW_TO_ENABLE + " (the event loop is not epoll)");
    }
    return ctx;
  }
}
