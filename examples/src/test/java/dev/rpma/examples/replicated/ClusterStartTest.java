package dev.rpma.examples.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A clustered start that fails is tried again, as a user's program would. */
class ClusterStartTest {

  @Test
  void aStartThatFailsIsTriedAgainUntilOneSucceeds() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    String started = ClusterStart.withRetries("test", () -> calls.incrementAndGet() < 3
            ? Future.failedFuture(new IllegalStateException("suspected and dropped"))
            : Future.succeededFuture("node"), 5, 1);
    assertEquals("node", started);
    assertEquals(3, calls.get());
  }

  @Test
  void everyAttemptFailedFailsNamingTheCountAndTheLastCause() {
    AtomicInteger calls = new AtomicInteger();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ClusterStart.withRetries("test", () -> {
          calls.incrementAndGet();
          return Future.failedFuture(new IllegalStateException("join refused"));
        }, 3, 1));
    assertEquals(3, calls.get());
    assertTrue(e.getMessage().contains("failed 3 times") && e.getMessage().contains("join refused"),
        e.getMessage());
  }

  @Test
  void aSlowStartIsWaitedForNotAbandonedForAnother() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    String started = ClusterStart.withRetries("test", () -> {
      calls.incrementAndGet();
      Promise<String> attempt = Promise.promise();
      new Thread(() -> {
        sleepQuietly(300);
        attempt.complete("slow");
      }).start();
      return attempt.future();
    }, 3, 1);
    assertEquals("slow", started);
    assertEquals(1, calls.get());
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
