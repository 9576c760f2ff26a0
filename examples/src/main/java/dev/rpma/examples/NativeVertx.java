package dev.rpma.examples;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;

/** The Vert.x instance the examples run on: native epoll, which vertx-rpma requires. */
public final class NativeVertx {

  private NativeVertx() {
  }

  /** @throws IllegalStateException when the native transport is not available */
  public static Vertx create() {
    VertxOptions options = new VertxOptions()
        .setPreferNativeTransport(true)
        // In the emulated guest the JVM runs ~10x slower: a cold event loop that loads classes
        // for a second is not blocked, so only warn past 10 s instead of past 2 s.
        .setMaxEventLoopExecuteTime(10)
        .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS)
        .setBlockedThreadCheckInterval(5)
        .setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS);
    Vertx vertx = Vertx.vertx(options);
    if (!vertx.isNativeTransportEnabled()) {
      Throwable cause = vertx.unavailableNativeTransportCause();
      vertx.close();
      throw new IllegalStateException("Vert.x is not on native epoll (is"
          + " netty-transport-native-epoll:linux-x86_64 on the class path?): " + cause);
    }
    return vertx;
  }
}
