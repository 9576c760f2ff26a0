package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The host tests' clock keeps Vert.x's timer rules, in virtual time: what the engine tests'
 * deadlines stand on.
 */
class VirtualClockTest {

  private final VirtualClock clock = new VirtualClock();
  private final List<String> fired = new ArrayList<>();

  @Test
  void timeStandsStillUntilAdvancedAndThenMovesByExactlyThat() {
    long t0 = clock.nanoTime();
    assertEquals(t0, clock.nanoTime());
    clock.advanceNanos(1_500);
    assertEquals(t0 + 1_500, clock.nanoTime());
    clock.advanceMs(2);
    assertEquals(t0 + 2_001_500, clock.nanoTime());
  }

  @Test
  void aTimerFiresAtItsDueTimeNotBeforeAndOnce() {
    long[] firedAt = {0};
    clock.setTimer(10, id -> firedAt[0] = clock.nanoTime());
    long due = clock.nanoTime() + 10_000_000;
    clock.advanceNanos(9_999_999);
    assertEquals(0, firedAt[0], "1 ns before its due time");
    clock.advanceMs(100);
    assertEquals(due, firedAt[0], "the clock read in the handler is its due time");
    assertEquals(0, clock.pendingTimers());
  }

  @Test
  void timersFireInDueOrderAndThoseDueTogetherInTheOrderTheyWereSet() {
    clock.setTimer(20, id -> fired.add("b"));
    clock.setTimer(10, id -> fired.add("a"));
    clock.setTimer(20, id -> fired.add("c"));
    clock.advanceMs(20);
    assertEquals(List.of("a", "b", "c"), fired);
  }

  @Test
  void aPeriodicTimerFiresFirstAfterOnePeriodThenEveryPeriodUntilCancelled() {
    long id = clock.setPeriodic(10, t -> fired.add("tick"));
    clock.advanceMs(9);
    assertEquals(List.of(), fired);
    clock.advanceMs(21); // 10, 20, 30
    assertEquals(3, fired.size());
    clock.cancelTimer(id);
    clock.advanceMs(100);
    assertEquals(3, fired.size());
  }

  @Test
  void aTimerCancelledByOneDueAtTheSameTimeDoesNotFire() {
    long[] second = {-1};
    clock.setTimer(5, id -> clock.cancelTimer(second[0]));
    second[0] = clock.setTimer(5, id -> fired.add("cancelled one"));
    long periodic = clock.setPeriodic(5, id -> fired.add("periodic"));
    clock.setTimer(5, id -> clock.cancelTimer(periodic));
    clock.advanceMs(50);
    assertEquals(List.of("periodic"), fired, "the periodic fired once, then was cancelled");
  }

  @Test
  void aDelayUnderOneMillisecondIsRefusedAsVertxDoes() {
    assertThrows(IllegalArgumentException.class, () -> clock.setTimer(0, id -> { }));
    assertThrows(IllegalArgumentException.class, () -> clock.setPeriodic(0, id -> { }));
  }
}
