package dev.rpma.examples;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.transport.Transport;
import java.util.concurrent.TimeUnit;

/**
 * The Vert.x instance the examples run on: a native transport (epoll, or io_uring), which
 * vertx-rpma requires.
 */
public final class NativeVertx {

  private NativeVertx() {
  }

  /**
   * The examples' options: the native transport preferred, and the blocked-thread warning
   * raised for the emulated device.
   */
  public static VertxOptions options() {
    return new VertxOptions()
        .setPreferNativeTransport(true)
        // In the emulated guest the JVM runs ~10x slower: a cold event loop that loads classes
        // for a second is not blocked, so only warn past 10 s instead of past 2 s (Vert.x's
        // default, which ordinary loop code trips there; on real hardware keep the default).
        .setMaxEventLoopExecuteTime(10)
        .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS)
        .setBlockedThreadCheckInterval(5)
        .setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS);
  }

  /** @throws IllegalStateException when the native transport is not available */
  public static Vertx create() {
    return create(options(), Transport.EPOLL);
  }

  /**
   * A Vert.x on {@code transport} ({@link Transport#EPOLL} or {@link Transport#IO_URING}).
   *
   * @throws IllegalStateException when that transport is not available
   */
  public static Vertx create(VertxOptions options, Transport transport) {
    if (transport == null || !transport.available()) {
      throw new IllegalStateException("the native transport is not available (are"
          + " netty-transport-native-epoll or -io_uring, classifier linux-x86_64, on the class"
          + " path, and does the kernel allow it?): " + (transport == null
              ? "its Netty classes are missing" : transport.unavailabilityCause()));
    }
    Vertx vertx = Vertx.builder().with(options).withTransport(transport).build();
    if (!vertx.isNativeTransportEnabled()) {
      Throwable cause = vertx.unavailableNativeTransportCause();
      vertx.close();
      throw new IllegalStateException("Vert.x is not on the native transport "
          + transport.name() + ": " + cause);
    }
    return vertx;
  }
}
