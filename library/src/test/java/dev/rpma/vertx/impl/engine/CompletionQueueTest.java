package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One CQ's drain: batches while they come back full, then yields by count or by time. */
class CompletionQueueTest {

  private static final int BATCH = 8;

  /** A CQ that always has a full batch, each batch taking {@code batchNanos}. */
  private static final class EndlessSource implements CompletionSource {
    final long batchNanos;
    int batches;

    EndlessSource(long batchNanos) {
      this.batchNanos = batchNanos;
    }

    @Override
    public int fd() {
      return 1;
    }

    @Override
    public int drain(boolean consumeEvent, int max, CompletionSink sink) {
      batches++;
      long until = System.nanoTime() + batchNanos;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      for (int i = 0; i < max; i++) {
        sink.onCompletion(i, 0, 0, 0, false, 0, 0);
      }
      return max;
    }
  }

  private final ConnectionCounters counters = new ConnectionCounters();
  private final AtomicInteger continued = new AtomicInteger();
  private final AtomicInteger delivered = new AtomicInteger();

  private CompletionQueue queue(CompletionSource source, int budget) {
    return new CompletionQueue(source, (wrId, status, vendor, bytes, hasImm, imm, qpNum) ->
        delivered.incrementAndGet(), counters, BATCH, budget, continued::incrementAndGet,
        e -> {
          throw e;
        });
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
    assertEquals(source.batches * BATCH, delivered.get());
  }

  @Test
  void aDrainThatEmptiesTheQueueDoesNotAskToContinue() {
    CompletionSource twoThenEmpty = new CompletionSource() {
      int calls;

      @Override
      public int fd() {
        return 1;
      }

      @Override
      public int drain(boolean consumeEvent, int max, CompletionSink sink) {
        return ++calls == 1 ? max : 2;
      }
    };
    queue(twoThenEmpty, 1024).onReadable();
    assertEquals(0, continued.get());
    assertEquals(1, counters.wakeups);
  }
}
