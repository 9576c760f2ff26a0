package dev.rpma.vertx.testkit;

import static dev.rpma.vertx.testkit.KitPair.await;
import static dev.rpma.vertx.testkit.KitPair.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a user's test can make the test kit's device do, to test timeouts and reconnects. */
class FaultInjectionTest {

  private static final Set<MemoryUsage> USAGES = EnumSet.of(MemoryUsage.READ_SRC,
      MemoryUsage.WRITE_DST, MemoryUsage.RECV);

  private Vertx vertx;

  @BeforeEach
  void nioVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void failNextFailsTheNextOperationWithThatStatusAndClosesItsConnection() {
    try (KitPair pair = new KitPair(vertx, USAGES, new ConnectionOptions())) {
      Promise<Throwable> closed = Promise.promise();
      pair.client.closeHandler(closed::complete);
      pair.kit.failNext(RpmaCompletionException.RETRY_EXC_ERR);

      Throwable failure = awaitFailure(pair.client.write(pair.remote, 0, pair.clientRegion, 0,
          8));

      assertEquals(RpmaCompletionException.RETRY_EXC_ERR,
          assertInstanceOf(RpmaCompletionException.class, failure).status());
      assertInstanceOf(RpmaConnectionClosedException.class, await(closed.future()));
    }
  }

  @Test
  void dropConnectionsEndsBothSidesAndFailsWhatWasPending() {
    try (KitPair pair = new KitPair(vertx, USAGES, new ConnectionOptions())) {
      Promise<Throwable> clientEnded = Promise.promise();
      Promise<Throwable> serverEnded = Promise.promise();
      pair.client.closeHandler(clientEnded::complete);
      pair.serverSide.closeHandler(serverEnded::complete);
      Future<?> pending = pair.serverSide.recv(pair.serverRegion, 0, 64);

      pair.kit.dropConnections();

      assertInstanceOf(RpmaConnectionClosedException.class, await(clientEnded.future()));
      assertInstanceOf(RpmaConnectionClosedException.class, await(serverEnded.future()));
      assertInstanceOf(RpmaConnectionClosedException.class, awaitFailure(pending));
    }
  }

  @Test
  void stalledCompletionsTripTheCompletionWatchdog() {
    ConnectionOptions options = new ConnectionOptions().setCompletionTimeoutMs(300);
    try (KitPair pair = new KitPair(vertx, USAGES, options)) {
      pair.kit.stallCompletions();

      Throwable failure = awaitFailure(pair.client.write(pair.remote, 0, pair.clientRegion, 0,
          8));

      assertInstanceOf(RpmaConnectionClosedException.class, failure);
      assertTrue(failure.getMessage().contains("300"), failure.getMessage());
      pair.kit.resumeCompletions();
    }
  }

  @Test
  void latencyDelaysEachCompletion() {
    try (KitPair pair = new KitPair(vertx, USAGES, new ConnectionOptions())) {
      pair.kit.latencyMs(200);
      long start = System.nanoTime();

      await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));

      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs >= 200, "completed after " + tookMs + " ms");
      pair.kit.latencyMs(0);
      assertFalse(pair.client.stats() == null);
    }
  }
}
