package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.transport.Transport;
import java.util.concurrent.atomic.AtomicInteger;

/** What the RDMA tests share: the device's address, a native-transport Vert.x, loop hops. */
final class RdmaTestSupport {

  private static final AtomicInteger NEXT_PORT =
      new AtomicInteger(7400 + (int) (ProcessHandle.current().pid() % 200) * 10);

  private RdmaTestSupport() {
  }

  /**
   * The system property the test bed's suites set ({@value #DEVICE_REQUIRED}): there, a device
   * test without a device is a failure, never a skip, as is one in the throw-away guest
   * (RPMA_TEST_GUEST=1). Elsewhere (an IDE, a host without RDMA) it skips.
   */
  static final String DEVICE_PROPERTY = "rpma.test.device";
  static final String DEVICE_REQUIRED = "required";

  /**
   * The address of a real RDMA device (RPMA_TEST_IP, set by ./dev rdma): fails the test where a
   * device is required ({@link #DEVICE_PROPERTY}) and there is none, else skips it.
   */
  static String deviceIp() {
    if (TestProvider.onTestKit()) {
      return TestProvider.KIT_ADDRESS;
    }
    return deviceIp(System.getenv("RPMA_TEST_IP"),
        DEVICE_REQUIRED.equals(System.getProperty(DEVICE_PROPERTY))
            || "1".equals(System.getenv("RPMA_TEST_GUEST")));
  }

  /** {@link #deviceIp()} on the address given and whether a device is required. */
  static String deviceIp(String ip, boolean required) {
    if (ip != null && !ip.isBlank()) {
      return ip;
    }
    if (required) {
      fail("no RDMA device: RPMA_TEST_IP is not set, and this run requires one (-D"
          + DEVICE_PROPERTY + "=" + DEVICE_REQUIRED + " or RPMA_TEST_GUEST=1): the test bed"
          + " lost the device's address (scripts/testbed/rdma.sh writes it)");
    }
    assumeTrue(false,
        "no RDMA device: RPMA_TEST_IP is not set (run the suite through ./dev test or ./dev rdma)");
    return ip;
  }

  static int nextPort() {
    return NEXT_PORT.getAndIncrement();
  }

  /**
   * The Netty transport the device tests run Vert.x on: {@code -Drpma.test.transport=io_uring}
   * (the guest suite's second pass), else epoll. Child JVMs get it from {@link ChildProcess}.
   */
  static final String TRANSPORT_PROPERTY = "rpma.test.transport";

  /**
   * The tag of a device test class (or method) whose subject never meets the event loop's
   * transport: its child JVM runs Vert.x as a plain application does, on epoll whatever the
   * pass, and what it tests happens before anything is watched on a loop (or it runs no Vert.x
   * at all). rdma-suite.sh runs it in the epoll pass only (a child JVM costs half a minute to
   * start under the emulator). Never an assumption on the transport instead: a skip fails the
   * run (scripts/testbed/junit-summary).
   */
  static final String TRANSPORT_INDEPENDENT = "transport-independent";

  static String transport() {
    return System.getProperty(TRANSPORT_PROPERTY, "epoll");
  }

  /** A Vert.x on the native transport {@link #transport()} names; fails if it is unavailable. */
  static Vertx nativeVertx() {
    return nativeVertx(null);
  }

  /** The same, reporting to {@code metrics} (when not null) through Vert.x's metrics SPI. */
  static Vertx nativeVertx(VertxMetricsFactory metrics) {
    return nativeVertx(metrics == null ? null : new MetricsOptions().setEnabled(true), metrics);
  }

  /**
   * The same with {@code metricsOptions} (when not null), reporting to {@code metrics}, or, when
   * that is null, to the provider Vert.x finds on the class path, as an application's would.
   */
  static Vertx nativeVertx(MetricsOptions metricsOptions, VertxMetricsFactory metrics) {
    VertxOptions options = new VertxOptions().setPreferNativeTransport(true);
    if (metricsOptions != null) {
      options.setMetricsOptions(metricsOptions);
    }
    if (TestProvider.onTestKit()) {
      // the test kit runs on any transport: NIO, which a native one would only hide
      return Vertx.builder().with(options.setPreferNativeTransport(false)).withMetrics(metrics)
          .build();
    }
    String name = transport();
    Transport transport = switch (name) {
      case "epoll" -> Transport.EPOLL;
      case "io_uring" -> Transport.IO_URING;
      default -> throw new IllegalArgumentException(
          "-D" + TRANSPORT_PROPERTY + "=" + name + ": expected epoll or io_uring");
    };
    if (transport == null || !transport.available()) {
      fail("native " + name + " transport is not available: " + (transport == null
          ? "its Netty classes are missing" : transport.unavailabilityCause()));
    }
    Vertx vertx = Vertx.builder().with(options).withTransport(transport).withMetrics(metrics)
        .build();
    if (!vertx.isNativeTransportEnabled()) {
      vertx.close();
      fail("native " + name + " transport is not in use: "
          + vertx.unavailableNativeTransportCause());
    }
    return vertx;
  }

  /**
   * Waits until what was already called on the connection from this thread has been posted:
   * operations hop to the connection's loop in order, so a no-op queued behind them is enough.
   * Used before a peer sends, so the receive is there first.
   */
  static void settle(RpmaConnection connection) {
    io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
    connection.context().runOnContext(v -> done.complete());
    await(done.future());
  }

  /** Computes a value on the connection's loop and waits for it. */
  static <T> T onLoop(RpmaConnection connection, java.util.function.Supplier<T> get) {
    io.vertx.core.Promise<T> value = io.vertx.core.Promise.promise();
    connection.context().runOnContext(v -> value.complete(get.get()));
    return await(value.future());
  }

  /** The connection's counters, read on its own loop. */
  static CompletionStats statsOf(RpmaConnection connection) {
    return onLoop(connection, connection::stats);
  }
}
