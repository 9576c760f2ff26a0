package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The completion path: readiness -> drain -> pending table -> Future. */
class EngineCompletionTest extends EngineTestBase {

  @Test
  void aCompletionCompletesTheFutureOfTheOperationThatPostedIt() {
    open();
    Future<Void> first = write();
    Future<Void> second = write();
    conn.complete(conn.posted.get(1));
    cqReady();
    await(second);
    assertFalse(first.isComplete());
  }

  @Test
  void aReceiveCompletionCarriesItsByteCountAndImmediateData() {
    open();
    Future<Received> r = recv();
    conn.main.ready.add(new FakeLibrpma.Wc(conn.last().wrId(), 0, 17, true, 0x1234));
    cqReady();
    assertEquals(new Received(17, true, 0x1234), await(r));
  }

  @Test
  void anErrorCompletionFailsWithItsStatusAndText() {
    open();
    Future<Void> w = write();
    conn.fail(conn.last(), 10);
    cqReady();
    RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure(w));
    assertEquals(10, e.status());
    assertEquals("status 10", e.statusName());
  }

  @Test
  void aStaleWrIdCompletesNothing() {
    open();
    write();
    FakeLibrpma.Post first = conn.last();
    conn.complete(first);
    cqReady();
    Future<Void> next = write(); // takes the same slot, a new generation
    conn.complete(first);
    cqReady();
    assertFalse(next.isComplete(), "the old wr_id must not complete the new operation");
  }

  @Test
  void aForeignWrIdCompletesNothing() {
    open();
    Future<Void> w = write();
    conn.main.ready.add(new FakeLibrpma.Wc(12345678L, 0, 0, false, 0));
    cqReady();
    assertFalse(w.isComplete());
  }

  @Test
  void theLocalRegionIsReleasedOnlyAfterTheOperationsFutureCompleted() {
    open();
    Future<Void> w = write();
    onLoop(() -> w.onComplete(ar -> log.add("future completed")));
    conn.complete(conn.last());
    cqReady();
    assertTrue(log.indexOf("future completed") < log.indexOf("release local"), log.toString());
  }

  @Test
  void readinessConsumesTheCqEventThenPollsInOneCall() {
    open();
    write();
    conn.complete(conn.last());
    cqReady();
    assertEquals(1, conn.main.eventsConsumed);
    assertEquals(1, conn.main.polls, "a batch that is not full ends the drain");
  }

  @Test
  void aFullBatchIsFollowedByAnotherPoll() {
    open();
    write();
    write();
    conn.complete(conn.posted.get(0));
    conn.complete(conn.posted.get(1));
    cqReady();
    assertEquals(2, conn.main.polls, "batch 2 came back full: poll again");
  }

  /** Six writes posted, all completed by the device: more than one drain budget (4). */
  private List<Future<Void>> sixCompletedWrites() {
    open(options().setCqSize(8).setSqSize(8));
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      writes.add(write());
    }
    conn.posted.forEach(conn::complete);
    return writes;
  }

  /**
   * The main CQ is readable: how many of {@code writes} are complete in the same turn of the
   * loop as the readiness, before the wake-up can run.
   */
  private long completeInTheTurnOfTheReadiness(List<Future<Void>> writes) {
    return onLoop(() -> {
      io.fire(MAIN_CQ_FD);
      return writes.stream().filter(Future::isComplete).count();
    });
  }

  @Test
  void aDrainStopsAtItsBudgetAndGoesOnFromTheWakeupFd() {
    // the loop's clock stands still: the count budget ends it, never the time budget (on a
    // loaded host the real one did, and the count was off)
    List<Future<Void>> writes = sixCompletedWrites();
    long doneAfterFirstTurn = completeInTheTurnOfTheReadiness(writes);
    assertEquals(4, doneAfterFirstTurn, "budget 4: the rest waits for the loop's next turn");
    assertTrue(log.contains("signal " + WAKEUP_FD), log.toString());
    await(Future.all(writes));
  }

  @Test
  void aDrainStopsAtItsTimeBudgetOnTheLoopsClockAndGoesOnFromTheWakeupFd() {
    List<Future<Void>> writes = sixCompletedWrites();
    // the first completion's listener holds the loop for the whole time budget
    onLoop(() -> writes.get(0).onComplete(
        ar -> clock.advanceNanos(CompletionQueue.TIME_BUDGET_NANOS)));
    long doneAfterFirstTurn = completeInTheTurnOfTheReadiness(writes);
    assertEquals(2, doneAfterFirstTurn, "one batch of 2, then the time budget was used up");
    assertTrue(log.contains("signal " + WAKEUP_FD), log.toString());
    await(Future.all(writes));
  }

  @Test
  void aReadableCqIsLeftToAPendingContinuationInTheSameLoopTurn() {
    List<Future<Void>> writes = sixCompletedWrites();
    // one turn of the loop: the CQ's readiness, then (a new event raised) its readiness again
    long doneInTheTurn = onLoop(() -> {
      io.fire(MAIN_CQ_FD);
      io.fire(MAIN_CQ_FD);
      return writes.stream().filter(Future::isComplete).count();
    });
    assertEquals(4, doneInTheTurn, "one budget per turn: the continuation drains the rest");
    assertEquals(1, conn.main.eventsConsumed, "the second event stays for a later turn");
    await(Future.all(writes));
    onLoop(() -> io.fire(MAIN_CQ_FD)); // the event left behind: consumed, finds nothing
    assertEquals(2, conn.main.eventsConsumed);
  }

  @Test
  void aFailingCqClosesTheConnectionWithItsError() {
    open();
    Future<Void> w = write();
    List<Throwable> closedWith = watchClose();
    conn.main.failure = new IllegalStateException("EIO from rpma_cq_wait");
    cqReady();
    Throwable why = failure(w);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    settle();
    assertEquals(1, closedWith.size());
    assertTrue(closedWith.get(0).getMessage().contains("completion queue failed"));
  }

  @Test
  void aSharedChannelIsConsumedOnceThenBothCqsAreDrained() {
    conn.recv = conn.new FakeCq(101);
    open(options().setSharedCompletionChannel(true).setRcqSize(4));
    Future<Received> r = recv();
    conn.recv.ready.add(new FakeLibrpma.Wc(conn.last().wrId(), 0, 3, false, 0));
    onLoop(() -> io.fire(300));
    assertEquals(1, conn.sharedWaits);
    assertEquals(3, await(r).byteLength());
    assertEquals(0, conn.recv.eventsConsumed, "rpma_conn_wait consumed it");
  }

  @Test
  void statsCountCompletionsDrainCallsAndWakeups() {
    open();
    write();
    conn.complete(conn.last());
    cqReady();
    var stats = onLoop(() -> engine.stats());
    assertEquals(1, stats.completions());
    assertEquals(1, stats.drainCalls());
    assertEquals(1, stats.wakeups());
  }

  @Test
  void statsReadInAFuturesCallbackAlreadyCountItsCompletionAndItsBatch() {
    open(); // polls of at most 2: the third completion is alone in the second batch
    write();
    write();
    Future<Void> last = write();
    AtomicReference<CompletionStats> seenByLast = new AtomicReference<>();
    onLoop(() -> last.onComplete(ar -> seenByLast.set(engine.stats())));
    conn.posted.forEach(conn::complete);
    cqReady();
    await(last);
    assertEquals(3, seenByLast.get().completions());
    assertEquals(2, seenByLast.get().drainCalls());
    assertEquals(1, seenByLast.get().wakeups());
  }

  @Test
  void aDrainThatGoesOnAfterUsingUpItsBudgetIsNoWakeup() {
    open(options().setSqSize(8).setCqSize(8)); // a budget of 4 completions, polls of 2
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      all.add(write());
    }
    conn.posted.forEach(conn::complete);
    cqReady(); // takes 4, then the continuation the last 2, at the loop's next turn
    await(Future.all(all));
    CompletionStats stats = onLoop(() -> engine.stats());
    assertEquals(6, stats.completions());
    assertEquals(3, stats.drainCalls());
    assertEquals(1, stats.wakeups(), "one event woke the loop");
  }
}
