package dev.rpma.examples.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A clustered start that fails is tried again, as a user's program would. */
class ClusterStartTest {

  @Test
  void aStartThatFailsIsTriedAgainUntilOneSucceeds() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    String started = ClusterStart.withRetries("test", () -> calls.incrementAndGet() < 3
            ? Future.failedFuture(new IllegalStateException("suspected and dropped"))
            : Future.succeededFuture("node"), 5, 1, 1_000, node -> { });
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
        }, 3, 1, 1_000, node -> { }));
    assertEquals(3, calls.get());
    assertTrue(e.getMessage().contains("failed 3 times") && e.getMessage().contains("join refused"),
        e.getMessage());
  }

  @Test
  void anAttemptNotDoneInTimeIsGivenUpAndClosedIfItFinishesLater() throws Exception {
    List<Promise<String>> attempts = new ArrayList<>();
    List<String> discarded = new ArrayList<>();
    String started = ClusterStart.withRetries("test", () -> {
      Promise<String> attempt = Promise.promise();
      attempts.add(attempt);
      if (attempts.size() == 2) {
        attempt.complete("second");
      }
      return attempt.future();
    }, 3, 1, 50, discarded::add);
    assertEquals("second", started);
    attempts.get(0).complete("first, late");
    assertEquals(List.of("first, late"), discarded);
  }
}
