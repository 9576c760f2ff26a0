package dev.rpma.vertx.impl.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.durable.PersistCoalescer.Range;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The server's group commit: requests waiting while persists run are persisted together, as
 * one range where they lie together, and each is answered only after the persist covering it.
 * The worker here is a queue run by the test, one job at a time, on the test's thread.
 */
class PersistCoalescerTest {

  private final List<String> persisted = new ArrayList<>();
  private final List<String> replies = new ArrayList<>();
  private final ArrayDeque<Runnable> jobs = new ArrayDeque<>();
  private boolean failing;

  private final PersistCoalescer coalescer = new PersistCoalescer(
      (offset, length) -> {
        if (failing) {
          throw new IOException("disk gone");
        }
        persisted.add(offset + "+" + length);
      },
      this::queue,
      (slot, status) -> replies.add(slot + ":" + status), 1);

  private Future<Void> queue(Callable<Void> job) {
    Promise<Void> done = Promise.promise();
    jobs.add(() -> {
      try {
        done.complete(job.call());
      } catch (Exception e) {
        done.fail(e);
      }
    });
    return done.future();
  }

  private void runNextJob() {
    jobs.remove().run();
  }

  @Test
  void aRequestAloneIsPersistedAtOnceAndAnsweredAfterItsPersist() {
    coalescer.request(3, 4096, 256);
    assertEquals(List.of(), replies, "answered before the persist ran");
    runNextJob();
    assertEquals(List.of("4096+256"), persisted);
    assertEquals(List.of("3:" + PersistWire.OK), replies);
  }

  @Test
  void requestsArrivingWhileAPersistRunsAreJoinedIntoOnePersistOfTheirUnion() {
    coalescer.request(0, 0, 256);
    coalescer.request(2, 512, 256); // out of order: 256-511 comes after it
    coalescer.request(1, 256, 256);
    coalescer.request(3, 768, 256);
    assertEquals(1, jobs.size(), "a second persist started while the first runs");
    runNextJob();
    assertEquals(List.of("0:0"), replies);
    assertEquals(1, jobs.size());
    runNextJob();
    assertEquals(List.of("0+256", "256+768"), persisted);
    assertEquals(List.of("0:0", "2:0", "1:0", "3:0"), replies);
    assertTrue(jobs.isEmpty());
  }

  @Test
  void noRequestIsAnsweredBeforeThePersistCoveringItReturns() {
    coalescer.request(0, 0, 64);
    coalescer.request(1, 64, 64);
    runNextJob();
    coalescer.request(2, 128, 64);
    assertEquals(List.of("0:0"), replies, "slot 1 answered before its persist ran");
    runNextJob();
    assertEquals(List.of("0:0", "1:0"), replies, "slot 2 answered with slot 1's persist");
    runNextJob();
    assertEquals(List.of("0:0", "1:0", "2:0"), replies);
  }

  @Test
  void aFailedPersistFailsEveryRequestOfItsBatchAndTheNextBatchStillRuns() {
    coalescer.request(0, 0, 64);
    coalescer.request(1, 64, 64);
    coalescer.request(2, 128, 64);
    failing = true;
    runNextJob();
    runNextJob();
    assertEquals(List.of("0:2", "1:2", "2:2"), replies);
    failing = false;
    coalescer.request(0, 192, 64);
    runNextJob();
    assertEquals("0:0", replies.get(3));
  }

  @Test
  void upToMaxRunningPersistsRunAtOnceAndTheRestWaitToBeJoined() {
    PersistCoalescer two = new PersistCoalescer(
        (offset, length) -> persisted.add(offset + "+" + length), this::queue,
        (slot, status) -> replies.add(slot + ":" + status), 2);
    two.request(0, 0, 64);
    two.request(1, 64, 64);
    two.request(2, 128, 64);
    two.request(3, 192, 64);
    assertEquals(2, jobs.size(), "not two persists running at once");
    runNextJob();
    assertEquals(List.of("0:0"), replies);
    assertEquals(2, jobs.size(), "the waiting requests did not start when one returned");
    runNextJob();
    runNextJob();
    assertEquals(List.of("0+64", "64+64", "128+128"), persisted);
    assertEquals(List.of("0:0", "1:0", "2:0", "3:0"), replies);
  }

  @Test
  void rangesFarApartStayApartAndThoseWithinTheGapAreJoined() {
    long gap = PersistCoalescer.JOIN_GAP;
    assertEquals(List.of(new Range(0, 100), new Range(100 + gap + 1, 10)),
        PersistCoalescer.join(List.of(new Range(100 + gap + 1, 10), new Range(0, 100))));
    assertEquals(List.of(new Range(0, 100 + gap + 10)),
        PersistCoalescer.join(List.of(new Range(100 + gap, 10), new Range(0, 100))));
  }

  @Test
  void aRangeInsideAnotherAddsNothing() {
    assertEquals(List.of(new Range(0, 4096)),
        PersistCoalescer.join(List.of(new Range(0, 4096), new Range(100, 10))));
  }
}
