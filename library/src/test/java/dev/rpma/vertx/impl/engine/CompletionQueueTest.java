package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One CQ's drain: batches while they come back full, then yields by count or by time. */
class CompletionQueueTest {

  private static final int BATCH = 8;

  /**
   * A CQ that always has what a poll asks for: each poll takes {@code batchNanos}, each
   * completion {@code nanosEach} more to deliver (its listeners' work). Records what was asked.
   */
  private static final class EndlessSource implements CompletionSource {
    final long batchNanos;
    final long nanosEach;
    final java.util.List<Integer> asked = new java.util.ArrayList<>();
    int batches;

    EndlessSource(long batchNanos) {
      this(batchNanos, 0);
    }

    EndlessSource(long batchNanos, long nanosEach) {
      this.batchNanos = batchNanos;
      this.nanosEach = nanosEach;
    }

    @Override
    public int fd() {
      return 1;
    }

    @Override
    public int drain(boolean consumeEvent, int max, CompletionSink sink) {
      batches++;
      asked.add(max);
      busy(batchNanos);
      for (int i = 0; i < max; i++) {
        busy(nanosEach);
        sink.onCompletion(i, 0, 0, 0, false, 0, 0);
      }
      return max;
    }

    private static void busy(long nanos) {
      long until = System.nanoTime() + nanos;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
    }
  }

  /** What poll number {@code call} (from 1) of a CQ returns. */
  private interface Poll {
    int poll(int call, int max, CompletionSink sink);
  }

  private static CompletionSource byCall(Poll poll) {
    return new CompletionSource() {
      int calls;

      @Override
      public int fd() {
        return 1;
      }

      @Override
      public int drain(boolean consumeEvent, int max, CompletionSink sink) {
        return poll.poll(++calls, max, sink);
      }
    };
  }

  private final ConnectionCounters counters = new ConnectionCounters();
  private final AtomicInteger continued = new AtomicInteger();
  private final AtomicInteger delivered = new AtomicInteger();

  private CompletionQueue queue(CompletionSource source, int budget) {
    return queue(source, budget, 0);
  }

  private CompletionQueue queue(CompletionSource source, int budget, long spinNanos) {
    return new CompletionQueue(source, (wrId, status, vendor, bytes, hasImm, imm, qpNum) ->
        delivered.incrementAndGet(), counters, BATCH, budget, spinNanos,
        continued::incrementAndGet, e -> {
          throw e;
        });
  }

  /**
   * A CQ where completion i (one each) shows up at the given poll, by number; empty otherwise.
   * Polls are counted, so a test can tell a spin from a return to the loop.
   */
  private static final class ScriptedSource implements CompletionSource {
    final java.util.Set<Integer> completionAtPoll;
    int polls;

    ScriptedSource(Integer... completionAtPoll) {
      this.completionAtPoll = java.util.Set.of(completionAtPoll);
    }

    @Override
    public int fd() {
      return 1;
    }

    @Override
    public int drain(boolean consumeEvent, int max, CompletionSink sink) {
      polls++;
      if (completionAtPoll.contains(polls)) {
        sink.onCompletion(polls, 0, 0, 0, false, 0, 0);
        return 1;
      }
      return 0;
    }
  }

  @Test
  void withoutBusyPollingAnEmptyPollEndsTheDrain() {
    ScriptedSource source = new ScriptedSource(2, 3);
    queue(source, 1024).onReadable();
    assertEquals(0, delivered.get());
    assertEquals(1, source.polls, "the first poll found the CQ empty: back to the loop");
  }

  @Test
  void withBusyPollingACompletionThatComesWhileSpinningIsTakenWithoutAWakeup() {
    ScriptedSource source = new ScriptedSource(1, 50);
    queue(source, 1024, 100_000_000L).onReadable(); // a spin far longer than 50 polls
    assertEquals(2, delivered.get());
    assertEquals(1, counters.wakeups, "the second completion needed no event");
    assertTrue(source.polls > 50, "it went on spinning after the second completion");
  }

  @Test
  void aSpinEndsOnceTheQueueHasBeenEmptyForItsLength() {
    ScriptedSource source = new ScriptedSource(1);
    long spin = 2_000_000L; // 2 ms: past the time budget, so it must go on from a yield
    CompletionQueue q = queue(source, 1024, spin);
    long t0 = System.nanoTime();
    q.onReadable();
    while (continued.get() > 0 && System.nanoTime() - t0 < 10 * spin) {
      continued.decrementAndGet();
      q.drainNow(); // what the loop's next I/O phase does after a yield
    }
    assertEquals(0, continued.get(), "the spin ended by itself, not by yielding again");
    assertTrue(System.nanoTime() - t0 >= spin, "it spun at least its length");
    int polls = source.polls;
    q.drainNow(); // e.g. the event the spin's completions raised: no new spin
    assertEquals(polls + 1, source.polls, "an empty wake-up after the spin polls once");
  }

  @Test
  void aSpinHoldsTheLoopNoLongerThanTheTimeBudgetInARow() {
    ScriptedSource source = new ScriptedSource(1);
    long t0 = System.nanoTime();
    queue(source, 1024, 1_000_000_000L).onReadable();
    long held = System.nanoTime() - t0;
    assertEquals(1, continued.get(), "it yields, to go on from the loop's next I/O phase");
    assertTrue(held < 50 * CompletionQueue.TIME_BUDGET_NANOS, "held the loop " + held + " ns");
  }

  @Test
  void aFastDrainYieldsAfterItsCountBudget() {
    EndlessSource source = new EndlessSource(0);
    queue(source, 64).onReadable();
    assertEquals(64, delivered.get());
    assertEquals(1, continued.get(), "the rest is asked for at the next I/O phase");
  }

  @Test
  void aSlowDrainYieldsAfterItsTimeBudgetBeforeItsCountBudget() {
    long batchNanos = CompletionQueue.TIME_BUDGET_NANOS / 4;
    EndlessSource source = new EndlessSource(batchNanos);
    queue(source, 1 << 20).onReadable();
    assertEquals(1, continued.get(), "the rest is asked for at the next I/O phase");
    // each batch takes at least a quarter of the budget: the fourth ends past it at the latest
    assertTrue(source.batches <= 4, "at most the time budget's worth: " + source.batches);
    // the last poll may ask for less (what fits in the time left), never for nothing
    assertTrue(delivered.get() > (source.batches - 1) * BATCH, delivered.get() + " delivered");
    assertEquals(counters.completions, delivered.get(), "every polled completion delivered");
  }

  @Test
  void aPollAsksForNoMoreCompletionsThanFitInTheTimeBudget() {
    // a batch costs twice the budget: after the first, polls ask for what fits in the budget
    EndlessSource source = new EndlessSource(0, 2 * CompletionQueue.TIME_BUDGET_NANOS / BATCH);
    CompletionQueue q = queue(source, 1 << 20);
    q.onReadable();
    assertEquals(java.util.List.of(BATCH), source.asked, "nothing measured yet: a whole batch");
    q.drainNow();
    int second = source.asked.get(1);
    assertTrue(second >= BATCH / 4 && second <= BATCH / 2, "asked for " + second);
    assertEquals(2, continued.get(), "each drain yields at the budget");
  }

  @Test
  void aPollAsksForAtLeastAQuarterOfTheBatch() {
    // one completion costs twice the budget: none fits, a quarter batch is asked for anyway
    EndlessSource source = new EndlessSource(0, 2 * CompletionQueue.TIME_BUDGET_NANOS);
    CompletionQueue q = queue(source, 1 << 20);
    q.onReadable();
    q.drainNow();
    assertEquals(java.util.List.of(BATCH, BATCH / 4), source.asked);
  }

  @Test
  void aCheapBatchKeepsItsFullSize() {
    EndlessSource source = new EndlessSource(0);
    CompletionQueue q = queue(source, 4 * BATCH);
    q.onReadable();
    q.drainNow();
    assertTrue(source.asked.stream().allMatch(max -> max == BATCH), source.asked.toString());
  }

  @Test
  void aDrainThatEmptiesTheQueueDoesNotAskToContinue() {
    CompletionSource twoThenEmpty = byCall((call, max, sink) -> call == 1 ? max : 2);
    queue(twoThenEmpty, 1024).onReadable();
    assertEquals(0, continued.get());
    assertEquals(1, counters.wakeups);
  }

  @Test
  void aDrainAskedForFromInsideADrainRunsOnlyOnceThatDrainHasReturned() {
    int[] depth = {0};
    int[] deepest = {0};
    CompletionQueue[] cq = {null};
    CompletionSource source = byCall((call, max, sink) -> {
      depth[0]++;
      deepest[0] = Math.max(deepest[0], depth[0]);
      if (call <= 2) {
        sink.onCompletion(call, 0, 0, 0, false, 0, 0);
      }
      if (call == 1) {
        cq[0].drainNow(); // a listener of the first completion drains again
      }
      depth[0]--;
      return call <= 2 ? 1 : 0;
    });
    cq[0] = queue(source, 1024);

    cq[0].onReadable();

    assertEquals(2, delivered.get());
    assertEquals(1, deepest[0], "no poll ran inside another");
  }
}
