package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaPeer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Metrics as an application wires them: Vert.x Micrometer Metrics with a Prometheus registry
 * ({@code io.vertx:vertx-micrometer-metrics} and {@code io.micrometer:micrometer-registry-prometheus}
 * on the class path, enabled in {@code VertxOptions}); every RDMA operation then shows in the
 * Prometheus text under {@code vertx_rpma_*}, and the connections' queues under
 * {@code vertx_pool_*{pool_type="rpma"}}. A monitoring system would scrape that text over HTTP
 * ({@code VertxPrometheusOptions.setStartEmbeddedServer}, or a route of your own serving
 * {@code registry.scrape()}); here it is read directly and its rpma lines printed.
 * {@code ./dev example metrics}.
 */
public final class MetricsExample implements FeatureExample {

  private static final String REGISTRY = "rpma-example";
  private static final int WRITES = 50;
  private static final int READS = 50;

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new MetricsExample()));
  }

  @Override
  public String name() {
    return "metrics";
  }

  @Override
  public int defaultPort() {
    return 7317;
  }

  @Override
  public String run(String address, int port) {
    MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))
        .setRegistryName(REGISTRY)
        .setEnabled(true);
    Vertx vertx = NativeVertx.create(NativeVertx.options().setMetricsOptions(metrics),
        Transport.EPOLL);
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));
      ServerAndClient pair = ServerAndClient.open(peer, address, port, 64,
          new ConnectionOptions());
      for (int i = 0; i < WRITES; i++) {
        await(pair.client().write(pair.remote(), 0, pair.local(), 0, 64));
      }
      for (int i = 0; i < READS; i++) {
        await(pair.client().read(pair.local(), 0, pair.remote(), 0, 64));
      }

      PrometheusMeterRegistry registry = (PrometheusMeterRegistry) BackendRegistries
          .getNow(REGISTRY);
      String scrape = registry.scrape();
      String rpmaLines = scrape.lines()
          .filter(line -> line.startsWith("vertx_rpma_") || line.contains("pool_type=\"rpma\""))
          .collect(Collectors.joining("\n", "", "\n"));
      double timed = sample(scrape, "vertx_rpma_processing_time_seconds_count",
          "client_namespace=\"client\"");
      double pending = sample(scrape, "vertx_rpma_processing_pending",
          "client_namespace=\"client\"");
      FeatureExample.check(timed == WRITES + READS, "the client's operations were timed "
          + timed + " times, expected " + (WRITES + READS) + ":\n" + rpmaLines);
      FeatureExample.check(pending == 0, pending + " operations still pending:\n" + rpmaLines);

      await(peer.close());
      return String.format("operations   %d writes, %d reads, each timed once;"
          + " none pending%nscrape       the rpma lines of the Prometheus text:%n%s",
          WRITES, READS, rpmaLines.indent(2));
    } finally {
      await(vertx.close());
    }
  }

  /** The value of the series {@code name} whose labels include {@code label}; -1 if none. */
  private static double sample(String scrape, String name, String label) {
    return scrape.lines()
        .filter(line -> line.startsWith(name + "{") && line.contains(label))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .findFirst().orElse(-1);
  }
}
