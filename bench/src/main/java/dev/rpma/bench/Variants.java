package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.transport.Transport;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The library as an application may also run it, each in a Vert.x of its own with a client
 * connection to the fixture's server: on Netty's io_uring event loop ({@value #IO_URING}), on
 * epoll with Vert.x metrics enabled ({@value #METRICS}, reporting to {@link BenchMetrics}), and
 * on epoll with hybrid polling ({@value #HYBRID}, ConnectionOptions.setBusyPollMicros).
 * Measured beside the plain library (epoll, no metrics) and the C reference in the same rounds,
 * so that the report can say what the transport and the metrics change.
 */
final class Variants implements AutoCloseable {

  static final String IO_URING = "vertx-rpma-io_uring";
  static final String METRICS = "vertx-rpma-metrics";
  static final String HYBRID = "vertx-rpma-hybrid";
  /**
   * The hybrid variant's spin: past the emulated device's round trip (0.1 ms, about 50 times an
   * RNIC's), so that it shows what spinning can take off; on an RNIC a few microseconds.
   */
  static final int HYBRID_SPIN_MICROS = 500;

  /** One variant's Vert.x, peer and connection. */
  private record Variant(Vertx vertx, RpmaPeer peer, LibraryDriver driver) {
  }

  private final List<Variant> variants = new ArrayList<>();

  /**
   * What the variants are measured on: where the event loop's share of the time is largest
   * (64 B, one operation in flight) and where batching decides (window 64), with window 1 as
   * the throughput counterpart of the latency runs. The rest would only lengthen the run.
   */
  static boolean covers(Scenario s) {
    return s.isLatency() ? s.size() == 64 && s.op() != Op.WRITE_FLUSH
        : s.window() == 1 || s.window() == 64;
  }

  /** The drivers, in the order the report lists them. */
  List<Driver> drivers() {
    return variants.stream().map(v -> (Driver) v.driver()).toList();
  }

  /** No variant: the run measures the library on epoll only. */
  static Variants none() {
    return new Variants();
  }

  static Variants open(BenchConfig config) {
    Variants v = new Variants();
    try {
      ConnectionOptions plain = BenchConfig.connectionOptions();
      v.variants.add(open(IO_URING, Transport.IO_URING, null, plain, config));
      v.variants.add(open(METRICS, Transport.EPOLL, BenchMetrics.factory(), plain, config));
      v.variants.add(open(HYBRID, Transport.EPOLL, null,
          BenchConfig.connectionOptions().setBusyPollMicros(HYBRID_SPIN_MICROS), config));
      return v;
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
  }

  /** Only the hybrid-polling variant (the perf profile's hybrid case). */
  static Variants hybridOnly(BenchConfig config) {
    Variants v = new Variants();
    v.variants.add(open(HYBRID, Transport.EPOLL, null,
        BenchConfig.connectionOptions().setBusyPollMicros(HYBRID_SPIN_MICROS), config));
    return v;
  }

  private static Variant open(String name, Transport transport, VertxMetricsFactory metrics,
      ConnectionOptions options, BenchConfig config) {
    Vertx vertx = vertx(transport, metrics);
    try {
      RpmaPeer peer = Fixture.await(RpmaPeer.open(vertx, config.address));
      MemoryRegion local = Fixture.await(peer.register(
          ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE),
          EnumSet.of(MemoryUsage.READ_DST, MemoryUsage.WRITE_SRC)));
      RpmaConnection connection = Fixture.await(
          peer.connect(new RpmaConnectOptions()
              .setHost(config.address).setPort(config.port)
              .setConnectionOptions(options)));
      RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
          RegionOffer.fromBytes(connection.remotePrivateData()).regionDescriptor());
      return new Variant(vertx, peer, new LibraryDriver(name, connection, local, remote));
    } catch (RuntimeException e) {
      vertx.close();
      throw e;
    }
  }

  private static Vertx vertx(Transport transport, VertxMetricsFactory metrics) {
    if (!transport.available()) {
      throw new IllegalStateException("native " + transport.name() + " transport is not"
          + " available", transport.unavailabilityCause());
    }
    VertxOptions options = new VertxOptions().setEventLoopPoolSize(1);
    if (metrics != null) {
      options.setMetricsOptions(new MetricsOptions().setEnabled(true));
    }
    return Vertx.builder().with(options).withTransport(transport).withMetrics(metrics).build();
  }

  /** Connections, peers, then each Vert.x. */
  @Override
  public void close() {
    for (Variant v : variants) {
      try {
        Fixture.await(v.driver().close());
        Fixture.await(v.peer().close());
      } finally {
        Fixture.await(v.vertx().close());
      }
    }
  }
}
