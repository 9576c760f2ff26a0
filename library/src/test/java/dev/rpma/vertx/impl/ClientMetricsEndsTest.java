package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.engine.OperationMetrics;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each end of an operation reaches a provider once, through the form of the SPI it implements:
 * the one-argument form for a provider like Vert.x Micrometer Metrics (whose device test is
 * MicrometerMetricsTest), the two-argument form, with the bytes, for one that takes them.
 */
class ClientMetricsEndsTest {

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private Vertx vertx;

  @AfterEach
  void stop() {
    if (vertx != null) {
      vertx.close().await();
    }
  }

  /** Overrides only the one-argument ends, as Micrometer's client metrics (5.2) do. */
  private final class OneArgumentEnds implements ClientMetrics<Object, Object, Object> {
    @Override
    public void requestEnd(Object m) {
      calls.add("requestEnd");
    }

    @Override
    public void responseEnd(Object m) {
      calls.add("responseEnd");
    }
  }

  /** Overrides only the two-argument ends (the one-argument defaults call them with -1). */
  private final class TwoArgumentEnds implements ClientMetrics<Object, Object, Object> {
    @Override
    public void requestEnd(Object m, long bytesWritten) {
      calls.add("requestEnd " + bytesWritten);
    }

    @Override
    public void responseEnd(Object m, long bytesRead) {
      calls.add("responseEnd " + bytesRead);
    }
  }

  /** Overrides both forms, each as a whole end. */
  private final class BothEnds implements ClientMetrics<Object, Object, Object> {
    @Override
    public void requestEnd(Object m) {
      calls.add("requestEnd");
    }

    @Override
    public void requestEnd(Object m, long bytesWritten) {
      calls.add("requestEnd " + bytesWritten);
    }

    @Override
    public void responseEnd(Object m) {
      calls.add("responseEnd");
    }

    @Override
    public void responseEnd(Object m, long bytesRead) {
      calls.add("responseEnd " + bytesRead);
    }
  }

  @Test
  void aProviderOverridingOnlyTheOneArgumentEndsGetsEachEndOnce() {
    runAWriteAndARead(remote -> new OneArgumentEnds());
    assertEquals(List.of("requestEnd", "responseEnd", "requestEnd", "responseEnd"), calls);
  }

  @Test
  void aProviderOverridingOnlyTheTwoArgumentEndsGetsEachEndOnceWithItsBytes() {
    runAWriteAndARead(remote -> new TwoArgumentEnds());
    assertEquals(List.of("requestEnd 64", "responseEnd 0", "requestEnd 0", "responseEnd 32"),
        calls);
  }

  @Test
  void aProviderOverridingBothFormsGetsEachEndOnceThroughTheFormWithBytes() {
    runAWriteAndARead(remote -> new BothEnds());
    assertEquals(List.of("requestEnd 64", "responseEnd 0", "requestEnd 0", "responseEnd 32"),
        calls);
  }

  /** A write of 64 B, then a read of 32 B, through a connection's metrics, both completed. */
  private void runAWriteAndARead(Function<SocketAddress, ClientMetrics<?, ?, ?>> provider) {
    VertxMetrics metrics = new VertxMetrics() {
      @Override
      public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remote, String type,
          String namespace) {
        return provider.apply(remote);
      }
    };
    vertx = Vertx.builder().with(new VertxOptions().setMetricsOptions(
        new MetricsOptions().setEnabled(true))).withMetrics(options -> metrics).build();
    ContextInternal context = (ContextInternal) vertx.getOrCreateContext();
    OperationMetrics connection = VertxOperationMetrics.of(context, "10.0.2.15", 7000, "client",
        new ConnectionOptions());
    Object write = connection.started(OpKind.WRITE, 64);
    connection.posted(write);
    connection.ended(write, null, null);
    Object read = connection.started(OpKind.READ, 32);
    connection.posted(read);
    connection.ended(read, null, null);
  }
}
