package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One CQ's drain: batches while they come back full, then yields by count or by time. In
 * virtual time ({@link VirtualClock}): the sources move the clock by what a poll or a
 * completion's delivery is to cost, so the time budget, a poll's size and a spin are exact.
 */
class CompletionQueueTest {

  private static final int BATCH = 8;
  /** What a poll of the scripted CQ costs, in virtual time. */
  private static final long POLL_NANOS = 1_000;

  private final VirtualClock clock = new VirtualClock();

  /**
   * A CQ that always has what a poll asks for: each poll takes {@code batchNanos}, each
   * completion {@code nanosEach} more to deliver (its listeners' work). Records what was asked.
   */
  private final class EndlessSource implements CompletionSource {
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
      clock.advanceNanos(batchNanos);
      for (int i = 0; i < max; i++) {
        clock.advanceNanos(nanosEach);
        sink.onCompletion(i, 0, 0, 0, false, 0, 0);
      }
      return max;
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
        delivered.incrementAndGet(), counters, clock, BATCH, budget, spinNanos,
        continued::incrementAndGet, e -> {
          throw e;
        });
  }

  /**
   * A CQ where completion i (one each) shows up at the given poll, by number; empty otherwise.
   * Polls are counted, so a test can tell a spin from a return to the loop; each takes
   * {@link #POLL_NANOS}.
   */
  private final class ScriptedSource implements CompletionSource {
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
      clock.advanceNanos(POLL_NANOS);
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
    queue(source, 1024, 100 * CompletionQueue.TIME_BUDGET_NANOS).onReadable(); // > 50 polls
    assertEquals(2, delivered.get());
    assertEquals(1, counters.wakeups, "the second completion needed no event");
    assertTrue(source.polls > 50, "it went on spinning after the second completion");
  }

  @Test
  void aSpinEndsOnceTheQueueHasBeenEmptyForItsLength() {
    ScriptedSource source = new ScriptedSource(1);
    long spin = 2_000_000L; // 2 ms: past the time budget, so it must go on from a yield
    CompletionQueue q = queue(source, 1024, spin);
    long lastCompletionAt = clock.nanoTime() + POLL_NANOS; // the first poll's
    q.onReadable();
    for (int yields = 0; continued.get() > 0 && yields < 100; yields++) { // 100: a hang
      continued.decrementAndGet();
      q.drainNow(); // what the loop's next I/O phase does after a yield
    }
    assertEquals(0, continued.get(), "the spin ended by itself, not by yielding again");
    long spun = clock.nanoTime() - lastCompletionAt;
    assertTrue(spun >= spin && spun <= spin + POLL_NANOS, "spun its length: " + spun + " ns");
    int polls = source.polls;
    q.drainNow(); // e.g. the event the spin's completions raised: no new spin
    assertEquals(polls + 1, source.polls, "an empty wake-up after the spin polls once");
  }

  @Test
  void aSpinHoldsTheLoopNoLongerThanTheTimeBudgetInARow() {
    ScriptedSource source = new ScriptedSource(1);
    long t0 = clock.nanoTime();
    queue(source, 1024, 1_000_000_000L).onReadable();
    long held = clock.nanoTime() - t0;
    assertEquals(1, continued.get(), "it yields, to go on from the loop's next I/O phase");
    assertTrue(held >= CompletionQueue.TIME_BUDGET_NANOS
        && held <= CompletionQueue.TIME_BUDGET_NANOS + POLL_NANOS, "held the loop " + held + " ns");
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
    // each batch takes a quarter of the budget: the fourth ends at it
    assertEquals(4, source.batches, "the time budget's worth");
    assertEquals(4 * BATCH, delivered.get(), "each a whole batch: all four fit in the budget");
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
    // each completion cost a quarter of the budget, and the second drain starts afresh
    assertEquals(BATCH / 2, source.asked.get(1), "what fits in the budget");
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
  void theTimeBudgetEndsADrainWhenTheClockJumpsPastItInOneBatch() {
    // a listener held the loop 5 ms (a collector's pause, say): far from the count budget
    CompletionSource source = byCall((call, max, sink) -> {
      clock.advanceNanos(call == 1 ? 5 * CompletionQueue.TIME_BUDGET_NANOS : 0);
      for (int i = 0; i < max; i++) {
        sink.onCompletion(i, 0, 0, 0, false, 0, 0);
      }
      return max;
    });
    queue(source, 1024).onReadable();
    assertEquals(BATCH, delivered.get(), "one batch, then the loop's other I/O");
    assertEquals(1, continued.get(), "the rest is asked for at the next I/O phase");
  }

  @Test
  void aDrainYieldsOnceItHeldTheLoopForItsTimeBudgetNotBefore() {
    long[] costs = {CompletionQueue.TIME_BUDGET_NANOS - 1, 1}; // the first batch, the second
    CompletionSource source = byCall((call, max, sink) -> {
      clock.advanceNanos(call <= costs.length ? costs[call - 1] : 0);
      for (int i = 0; i < max; i++) {
        sink.onCompletion(i, 0, 0, 0, false, 0, 0);
      }
      return max;
    });
    queue(source, 1024).onReadable();
    assertEquals(1, continued.get(), "it yielded");
    // 1 ns short of the budget it polled again (at least a quarter batch), then yielded
    assertEquals(BATCH + BATCH / 4, delivered.get());
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
