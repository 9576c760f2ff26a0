package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Drains one CQ on its connection's event loop.
 *
 * <p>On readiness of the CQ's fd: consume the pending event, then poll, in one native call;
 * poll again while batches come back full. After {@code budget} completions, or
 * {@link #TIME_BUDGET_NANOS} of draining, whichever comes first, the loop is yielded to its
 * other I/O and the rest is drained at its next I/O phase ({@link DrainContinuation}): leftover
 * completions raise no new event, so they must not wait for one.
 *
 * <p>A poll asks for no more completions than fit in the time left of the budget (but at least
 * a quarter of the batch), at the cost per completion the last full batch measured: delivering
 * a completion runs its listeners (which post the next operations), and on the emulated device
 * a batch of 32 took twice the budget by itself, so a time check between batches could not keep
 * a drain near its budget. On a fast device the whole batch always fits. Time is the loop's
 * {@link EngineClock}.
 *
 * <p>Hybrid polling ({@code spinNanos} above 0, {@code ConnectionOptions.setBusyPollMicros}):
 * when a poll finds the CQ empty, it polls again on the loop until a completion comes or the CQ
 * has been empty for {@code spinNanos}, then goes back to sleeping on the fd. A completion that
 * arrives while spinning is taken without an event, a wakeup and the syscalls around them (the
 * CQ was re-armed by the event that started the drain, so it still raises one: the next
 * readiness consumes it and finds what is left). The time budget bounds a spin too, and how long
 * the CQ has been empty is kept across yields, so a spin never restarts by itself.
 *
 * <p>No drain runs inside another: a source polls a batch into one buffer and then decodes it,
 * delivering each completion, whose listeners run user code; a drain they started would poll
 * into the same buffer under the outer drain's feet (completions lost, others delivered twice
 * or out of order). So a drain asked for from inside a drain, and whatever must not run during
 * one ({@link #outsideDrain}), runs once the outer drain has returned, in the order asked.
 */
final class CompletionQueue {

  /**
   * How long one drain may hold the loop: the count budget alone let a saturated connection
   * keep another fd of its loop waiting 31 ms at the median on the emulated device (the loop
   * probe of bench run E), where delivering 1,024 completions takes that long; on an RNIC the
   * count comes first. Checked once per full batch, so it costs a clock read per batch (and one
   * per drain, at its start: a batch of a saturated connection can take a good part of the
   * budget on the emulator, so it must be counted from the start); the same reads size the
   * polls.
   */
  static final long TIME_BUDGET_NANOS = 1_000_000;

  private final CompletionSource source;
  private final CompletionSink sink;
  /** The sink, behind the counting of each completion before it is delivered. */
  private final CompletionSink counted;
  /** Whether the current poll has delivered no completion yet (its batch is not counted). */
  private boolean batchUncounted;
  private final ConnectionCounters counters;
  /** Read per poll: one monomorphic call in production ({@code ContextClock}), no garbage. */
  private final EngineClock clock;
  private final int batch;
  private final int budget;
  private final long spinNanos;
  private final Runnable continueLater;
  private final Consumer<RuntimeException> onFailure;
  private boolean stopped;
  /** A drain is delivering completions (its listeners run inside it). */
  private boolean draining;
  /** What was asked for during a drain, to run once it returned; allocated when first needed. */
  private ArrayDeque<Runnable> afterDrain;
  /** The clock's time when polls began to find the CQ empty; 0 after a completion. */
  private long emptySince;
  /** The clock's time when the current drain began. */
  private long heldSince;
  /** What delivering one completion took in the last full batch (ns); 0 until one was full. */
  private long nanosPerCompletion;
  /**
   * The fewest completions a poll asks for: a quarter of the batch. Fewer would spend the loop
   * turn's fixed cost (a wakeup, the continuation's eventfd, a JNI crossing) on too few
   * completions: without it the polls averaged 7-10 completions on the emulator (bench runs H
   * and I) and the unpinned window-64 throughput fell (run H); a drain may so overrun its
   * budget by this many completions.
   */
  private final int minPoll;

  /**
   * {@code continueLater}: asks for {@link #drainNow()} from the loop's next I/O phase;
   * {@code onFailure}: waiting or polling failed (not "nothing pending").
   */
  CompletionQueue(CompletionSource source, CompletionSink sink, ConnectionCounters counters,
      EngineClock clock, int batch, int budget, Runnable continueLater,
      Consumer<RuntimeException> onFailure) {
    this(source, sink, counters, clock, batch, budget, 0, continueLater, onFailure);
  }

  /** The same, spinning for {@code spinNanos} on an empty CQ (0: never). */
  CompletionQueue(CompletionSource source, CompletionSink sink, ConnectionCounters counters,
      EngineClock clock, int batch, int budget, long spinNanos, Runnable continueLater,
      Consumer<RuntimeException> onFailure) {
    this.source = source;
    this.sink = sink;
    this.counted = (wrId, status, vendorError, byteLength, hasImm, imm, qpNum) -> {
      countOne();
      sink.onCompletion(wrId, status, vendorError, byteLength, hasImm, imm, qpNum);
    };
    this.counters = counters;
    this.clock = clock;
    this.batch = batch;
    this.budget = budget;
    this.spinNanos = spinNanos;
    this.minPoll = Math.max(1, batch / 4);
    this.continueLater = continueLater;
    this.onFailure = onFailure;
  }

  /** The CQ's own fd became readable: consume its event, then drain. */
  void onReadable() {
    counters.wakeups++;
    drain(true);
  }

  /** Drain without consuming events (shared channel: the connection consumed them). */
  void drainNow() {
    drain(false);
  }

  /** No more draining, also not from a queued continuation. */
  void stop() {
    stopped = true;
  }

  /**
   * Delivers every completion the CQ holds now, whatever the budget: {@code atMost} bounds it
   * (what can be in the CQ at most: the receives posted), so that a CQ that keeps filling cannot
   * hold the loop for ever. For what must see the CQ empty before it goes on (a shared receive
   * queue forgetting a queue pair); from inside a drain, it runs once that drain returned.
   */
  void drainOut(int atMost) {
    if (draining) {
      outsideDrain(() -> drainOut(atMost));
      return;
    }
    draining = true;
    try {
      int left = atMost;
      while (!stopped && left > 0) {
        int max = Math.min(batch, left);
        int n = poll(false, max);
        if (n < max) {
          return; // empty (or failed)
        }
        left -= n;
      }
    } finally {
      draining = false;
      runDeferred();
    }
  }

  /**
   * Runs {@code action} now, or, when called from inside a drain (a completion's listener
   * closing something, say), once the drain has returned: what would drain this CQ again, or
   * change what its completions are matched to, must not run in the middle of a batch.
   */
  void outsideDrain(Runnable action) {
    if (!draining) {
      action.run();
      return;
    }
    if (afterDrain == null) {
      afterDrain = new ArrayDeque<>();
    }
    afterDrain.add(action);
  }

  /** Whether a drain is delivering completions now (this is one of their listeners). */
  boolean draining() {
    return draining;
  }

  private void runDeferred() {
    Runnable next;
    while (!draining && afterDrain != null && (next = afterDrain.poll()) != null) {
      next.run();
    }
  }

  /** One poll of at most {@code max}, each completion counted; -1 if the source failed. */
  private int poll(boolean consumeEvent, int max) {
    batchUncounted = true;
    try {
      return source.drain(consumeEvent, max, counted);
    } catch (RuntimeException e) {
      onFailure.accept(e);
      return -1;
    } finally {
      sink.batchDelivered();
    }
  }

  private void drain(boolean consumeEvent) {
    if (draining) {
      outsideDrain(() -> drain(consumeEvent));
      return;
    }
    draining = true;
    try {
      drainBudgeted(consumeEvent);
    } finally {
      draining = false;
      runDeferred();
    }
  }

  private void drainBudgeted(boolean consumeEvent) {
    int left = budget;
    long now = clock.nanoTime();
    heldSince = now;
    boolean consume = consumeEvent;
    while (!stopped) {
      int max = pollSize(now);
      int n = poll(consume, max);
      if (n < 0) {
        return;
      }
      consume = false;
      if (n < max) {
        // the CQ is empty; it was re-armed before this poll
        if (spinNanos == 0) {
          return;
        }
        now = clock.nanoTime();
        if (!keepSpinning(n, now)) {
          return;
        }
        continue;
      }
      emptySince = 0;
      left -= n;
      long polledAt = now;
      now = clock.nanoTime();
      nanosPerCompletion = Math.max(1, (now - polledAt) / n);
      if (left <= 0 || heldTooLong(now)) {
        continueLater.run(); // yield the loop to its other I/O, then go on
        return;
      }
    }
  }

  /**
   * Counts a completion (and, at a poll's first, its batch) before it is delivered: its
   * Future's callbacks, which may read the counters, see it counted.
   */
  private void countOne() {
    counters.completions++;
    if (batchUncounted) {
      batchUncounted = false;
      counters.drainCalls++;
    }
  }

  /**
   * How many completions the next poll asks for at {@code now}: the batch, or as many as fit in
   * the time left of the budget at the last measured cost, but at least {@link #minPoll}.
   */
  private int pollSize(long now) {
    if (nanosPerCompletion == 0) {
      return batch;
    }
    long fit = (TIME_BUDGET_NANOS - (now - heldSince)) / nanosPerCompletion;
    return (int) Math.max(minPoll, Math.min(batch, fit));
  }

  /**
   * After a poll that emptied the CQ ({@code n} completions), in hybrid mode: whether to poll
   * again now. Not once the CQ has been empty for the spin; at the time budget, later, from the
   * loop's next I/O phase.
   */
  private boolean keepSpinning(int n, long now) {
    if (n > 0 || emptySince == 0) {
      emptySince = now; // the spin starts (again) at the last completion
    } else if (now - emptySince >= spinNanos) {
      return false; // back to sleeping on the fd; a spurious event does not restart the spin
    }
    if (heldTooLong(now)) {
      continueLater.run();
      return false;
    }
    Thread.onSpinWait();
    return true;
  }

  /** Whether this drain has held the loop for its time budget at {@code now}. */
  private boolean heldTooLong(long now) {
    return now - heldSince >= TIME_BUDGET_NANOS;
  }
}
