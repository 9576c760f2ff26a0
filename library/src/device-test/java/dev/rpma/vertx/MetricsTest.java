package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RecordingVertxMetrics.Counts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With metrics enabled, a known workload is reported through Vert.x's metrics SPI (client and
 * pool metrics of type "rpma"), every operation once, with its bytes: what only a provider of
 * the tests' own shows (each operation's kind and bytes, through the two-argument ends, which
 * Micrometer's client metrics do not take; tokens a provider leaves null; the pools' sizes and
 * most in use; a connection's life). What Vert.x Micrometer Metrics records, failures included,
 * is {@link MicrometerMetricsTest}'s.
 */
@Tag("rdma")
class MetricsTest {

  private static final int WRITES = 100;
  private static final int READS = 20;
  /** Send queue of 4: all but the first 4 operations issued at once wait for room. */
  private static final ConnectionOptions SMALL =
      new ConnectionOptions().setCqSize(4).setSqSize(4).setRqSize(4);

  private final RecordingVertxMetrics metrics = new RecordingVertxMetrics();
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = RdmaTestSupport.nativeVertx(RecordingVertxMetrics.factory(metrics));
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void everyOperationIsReportedOnceWithItsKindAndBytes() {
    try (Loopback pair = Loopback.open(vertx, SMALL)) {
      await(Future.all(issueAtOnce(pair)));
    }
    Counts client = metrics.client("rpma", "client");
    assertEquals(WRITES, client.requests("write"));
    assertEquals(READS, client.requests("read"));
    assertEquals(WRITES + READS, client.requests(), "nothing else: " + client.requestsByUri);
    assertEquals(WRITES + READS, client.requestEnds.get());
    assertEquals(WRITES * 64L, client.bytesWritten.get(), "writes carry 64 bytes each");
    assertEquals(WRITES + READS, client.responses.get());
    assertEquals(READS * 32L, client.bytesRead.get(), "reads bring 32 bytes each");
    assertEquals(0, client.resets.get());
  }

  @Test
  void waitingForRoomAndBeingInFlightAreReportedAsThePoolsQueueAndUse() {
    CompletionStats stats;
    try (Loopback pair = Loopback.open(vertx, SMALL)) {
      await(Future.all(issueAtOnce(pair)));
      stats = RdmaTestSupport.statsOf(pair.client);
    }
    Counts pool = metrics.pool("rpma"); // its tokens are null: each must still be ended
    assertEquals(WRITES + READS - 4, stats.queuedOperations());
    assertEquals(stats.queuedOperations(), pool.enqueued.get());
    assertEquals(stats.queuedOperations(), pool.dequeued.get());
    assertEquals(WRITES + READS, pool.begun.get());
    assertEquals(WRITES + READS, pool.ended.get());
    assertTrue(pool.maxInUse.get() <= 4, "never more in flight than the send queue holds: "
        + pool.maxInUse.get());
    assertEquals(List.of(8, 8), pool.poolSizes, "one pool per connection, its queues' room");
  }

  @Test
  void bothEndsReportTheirConnectionOpenedThenClosed() {
    String address;
    try (Loopback pair = Loopback.open(vertx, SMALL)) {
      address = RdmaTestSupport.deviceIp();
    }
    for (String namespace : List.of("client", "server")) {
      Counts c = metrics.client("rpma", namespace);
      assertEquals(1, c.connected.get(), namespace);
      assertEquals(1, c.disconnected.get(), namespace);
      assertEquals(1, c.closed.get(), namespace + ": the metrics are closed with the connection");
      assertTrue(c.remotes.get(0).startsWith(address + ":"), namespace + ": " + c.remotes);
    }
  }

  @Test
  void aSharedQueuesReceivesAreReportedUnderItsOwnNamespaceWithTheBytesReceived() {
    int clients = 2;
    int messages = 3;
    long bytes = 0;
    try (SharedQueueFixture f = new SharedQueueFixture(vertx, clients * messages,
        new SharedReceiveQueueOptions().setRqSize(4))) {
      List<Future<SharedReceived>> receives = new ArrayList<>();
      for (int slot = 0; slot < clients * messages; slot++) { // 2 of them wait for room
        receives.add(f.queue.recv(f.inbox, (long) slot * SharedQueueFixture.SLOT,
            SharedQueueFixture.SLOT));
      }
      List<Future<Void>> sends = new ArrayList<>();
      for (int n = 0; n < clients; n++) {
        RpmaConnection c = f.connectClient(n);
        for (int m = 0; m < messages; m++) {
          sends.add(f.send(c, n, m, n * messages + m));
          bytes += SharedQueueFixture.message(n, m).length;
        }
      }
      await(Future.all(sends));
      await(Future.all(receives));
    }
    Counts queue = metrics.client("rpma", "shared-queue");
    assertEquals(clients * messages, queue.requests("recv"));
    assertEquals(clients * messages, queue.requests(), "nothing else: " + queue.requestsByUri);
    assertEquals(bytes, queue.bytesRead.get(), "each receive brings its message's length");
    assertEquals(1, queue.closed.get(), "the metrics are closed with the queue");
    Counts pool = metrics.pool("rpma");
    assertTrue(pool.poolSizes.contains(4), "the queue's pool is its receive room: "
        + pool.poolSizes);
  }

  /** WRITES writes of 64 B, then READS reads of 32 B, from one task on the loop. */
  private static List<Future<Void>> issueAtOnce(Loopback pair) {
    return onLoop(pair, () -> {
      List<Future<Void>> all = new ArrayList<>();
      for (int i = 0; i < WRITES; i++) {
        all.add(pair.client.write(pair.remote, (i % 128) * 64L, pair.clientRegion, 0, 64));
      }
      for (int i = 0; i < READS; i++) {
        all.add(pair.client.read(pair.clientRegion, 1024, pair.remote, i * 32L, 32));
      }
      return all;
    });
  }

  private static <T> T onLoop(Loopback pair, java.util.function.Supplier<T> action) {
    Promise<T> done = Promise.promise();
    pair.client.context().runOnContext(v -> done.complete(action.get()));
    return await(done.future());
  }
}
