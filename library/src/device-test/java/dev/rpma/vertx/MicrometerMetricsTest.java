package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.RdmaTestSupport.onLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operation metrics as Vert.x Micrometer Metrics (the provider users pick) records them,
 * wired as an application wires it (MicrometerMetricsOptions with Prometheus, the provider found
 * on the class path) and read from its Prometheus scrape after a known workload: every operation
 * timed once, nothing left pending, the pools' figures matching the connection's own counters.
 * Micrometer's client metrics take neither an operation's kind nor its bytes; the library's
 * reporting of those is {@link MetricsTest}'s.
 */
@Tag("rdma")
class MicrometerMetricsTest {

  /** Operations of each kind: writes, reads, sends (each received by the server side). */
  private static final int N = 64;
  /** A send queue of 16: most of the 3N operations issued at once wait for room. */
  private static final ConnectionOptions OPTIONS =
      new ConnectionOptions().setSqSize(16).setRqSize(N).setCqSize(2 * N);

  private final String registryName = "rpma-test-" + UUID.randomUUID();
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = RdmaTestSupport.nativeVertx(new MicrometerMetricsOptions().setEnabled(true)
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))
        .setRegistryName(registryName), null);
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void everyOperationIsTimedOnceAndNoneIsLeftPending() {
    try (Loopback pair = Loopback.open(vertx, OPTIONS)) {
      runWorkload(pair);
    }
    PrometheusScrape scrape = scrape();
    assertEquals(3 * N, scrape.value("vertx_rpma_processing_time_seconds_count",
        "client_namespace", "client"), "writes, reads and sends, each once");
    assertEquals(N, scrape.value("vertx_rpma_processing_time_seconds_count",
        "client_namespace", "server"), "the server side's receives, each once");
    for (String namespace : List.of("client", "server")) {
      assertEquals(0, scrape.value("vertx_rpma_processing_pending",
          "client_namespace", namespace), namespace);
      assertEquals(0, scrape.value("vertx_rpma_resets_total", "client_namespace", namespace),
          namespace);
    }
  }

  @Test
  void thePoolsShowTheWaitsForRoomAndEveryOperationInFlightOnce() {
    long queued;
    try (Loopback pair = Loopback.open(vertx, OPTIONS)) {
      runWorkload(pair);
      queued = RdmaTestSupport.statsOf(pair.client).queuedOperations()
          + RdmaTestSupport.statsOf(pair.serverSide).queuedOperations();
    }
    assertTrue(queued > 0, "the workload must make operations wait for room");
    PrometheusScrape scrape = scrape();
    assertEquals(queued, scrape.value("vertx_pool_queue_time_seconds_count", "pool_type", "rpma"),
        "each operation that waited for room, once");
    assertEquals(4 * N, scrape.value("vertx_pool_completed_total", "pool_type", "rpma"),
        "each operation once in use (the server side's receives included)");
    assertEquals(4 * N, scrape.value("vertx_pool_usage_seconds_count", "pool_type", "rpma"));
    assertEquals(0, scrape.value("vertx_pool_queue_pending", "pool_type", "rpma"));
    assertEquals(0, scrape.value("vertx_pool_in_use", "pool_type", "rpma"));
    assertEquals(0, scrape.value("vertx_pool_ratio", "pool_type", "rpma"));
  }

  @Test
  void operationsFailedByACloseAreCountedAsResetsAndLeaveNothingPending() {
    List<Future<Void>> all;
    try (Loopback pair = Loopback.open(vertx, OPTIONS)) {
      all = onLoop(pair.client, () -> {
        List<Future<Void>> writes = new ArrayList<>();
        for (int i = 0; i < N; i++) {
          writes.add(pair.client.write(pair.remote, i * 64L, pair.clientRegion, 0, 64));
        }
        pair.client.close();
        return writes;
      });
      await(Future.join(all).otherwiseEmpty());
    }
    long failed = all.stream().filter(Future::failed).count();
    assertTrue(failed >= N - 16, "those still waiting for room fail: " + failed);
    PrometheusScrape scrape = scrape();
    assertEquals(failed, scrape.value("vertx_rpma_resets_total", "client_namespace", "client"));
    assertEquals(N, scrape.value("vertx_rpma_processing_time_seconds_count",
        "client_namespace", "client"), "completed or reset, each timed once");
    assertEquals(0, scrape.value("vertx_rpma_processing_pending", "client_namespace", "client"));
    assertEquals(0, scrape.value("vertx_pool_queue_pending", "pool_type", "rpma"));
    assertEquals(0, scrape.value("vertx_pool_in_use", "pool_type", "rpma"));
  }

  @Test
  void aSharedQueuesReceivesAreTimedOnceUnderItsNamespaceAndNoneIsLeftPending() {
    int clients = 2;
    int messages = 8;
    PrometheusScrape scrape;
    try (SharedQueueFixture f = new SharedQueueFixture(vertx, clients * messages,
        new SharedReceiveQueueOptions().setRqSize(4))) { // most receives wait for room
      List<Future<SharedReceived>> receives = new ArrayList<>();
      for (int slot = 0; slot < clients * messages; slot++) {
        receives.add(f.queue.recv(f.inbox, (long) slot * SharedQueueFixture.SLOT,
            SharedQueueFixture.SLOT));
      }
      List<Future<Void>> sends = new ArrayList<>();
      for (int n = 0; n < clients; n++) {
        RpmaConnection c = f.connectClient(n);
        for (int m = 0; m < messages; m++) {
          sends.add(f.send(c, n, m, n * messages + m));
        }
      }
      await(Future.all(sends));
      await(Future.all(receives));
      scrape = scrape(); // the fixture closes the Vert.x, and the registry with it
    }
    assertEquals(clients * messages, scrape.value("vertx_rpma_processing_time_seconds_count",
        "client_namespace", "shared-queue"));
    assertEquals(0, scrape.value("vertx_rpma_processing_pending",
        "client_namespace", "shared-queue"));
  }

  /**
   * The server side posts N receives; then, from one task on the client's loop, N writes of
   * 64 B, N reads of 32 B and N sends of 16 B; waits for all of them.
   */
  private static void runWorkload(Loopback pair) {
    List<Future<Received>> receives = onLoop(pair.serverSide, () -> {
      List<Future<Received>> all = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        all.add(pair.serverSide.recv(pair.serverRegion, 32 * 1024 + i * 16L, 16));
      }
      return all;
    });
    List<Future<Void>> operations = onLoop(pair.client, () -> {
      List<Future<Void>> all = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        all.add(pair.client.write(pair.remote, i * 64L, pair.clientRegion, 0, 64));
        all.add(pair.client.read(pair.clientRegion, 1024 + i * 32L, pair.remote, i * 32L, 32));
        all.add(pair.client.send(pair.clientRegion, 8192 + i * 16L, 16));
      }
      return all;
    });
    await(Future.all(operations));
    await(Future.all(receives));
  }

  private PrometheusScrape scrape() {
    return new PrometheusScrape(
        ((PrometheusMeterRegistry) BackendRegistries.getNow(registryName)).scrape());
  }
}
