package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.transport.Transport;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Metrics as an application wires them: Vert.x Micrometer Metrics with a Prometheus registry
 * ({@code io.vertx:vertx-micrometer-metrics} and
 * {@code io.micrometer:micrometer-registry-prometheus} on the class path, enabled in
 * {@code VertxOptions}); every RDMA operation then shows in the
 * Prometheus text under {@code vertx_rpma_*}, and the connections' queues under
 * {@code vertx_pool_*{pool_type="rpma"}}. The text is scraped as a Prometheus server would,
 * over HTTP from the endpoint the provider serves ({@code setStartEmbeddedServer}, here on
 * 127.0.0.1 at the example's port + 1000), and its rpma lines are printed.
 * {@code ./dev example metrics}.
 */
public final class MetricsExample implements FeatureExample {

  private static final String SCRAPE_HOST = "127.0.0.1";
  private static final String SCRAPE_PATH = "/metrics";
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
  public String run(String address, int port) throws IOException {
    int scrapePort = port + 1000;
    MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true)
            .setStartEmbeddedServer(true)
            .setEmbeddedServerOptions(new HttpServerOptions().setHost(SCRAPE_HOST)
                .setPort(scrapePort))
            .setEmbeddedServerEndpoint(SCRAPE_PATH))
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

      // what a Prometheus server does (a plain blocking GET: this is the main thread)
      String scrape = get(URI.create("http://" + SCRAPE_HOST + ":" + scrapePort + SCRAPE_PATH));
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
          + " none pending%nscrape       http://%s:%d%s, its rpma lines:%n%s",
          WRITES, READS, SCRAPE_HOST, scrapePort, SCRAPE_PATH, rpmaLines.indent(2));
    } finally {
      await(vertx.close());
    }
  }

  private static String get(URI uri) throws IOException {
    try (InputStream in = uri.toURL().openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
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
