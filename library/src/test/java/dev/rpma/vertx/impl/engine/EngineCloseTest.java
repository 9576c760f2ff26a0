package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Closing: who is told what, in which order things are let go, and the watchdog. */
class EngineCloseTest extends EngineTestBase {

  @Test
  void closeFailsTheOperationsThatWaitedForRoomWithTheCloseReason() {
    open();
    for (int i = 0; i < 4; i++) {
      write();
    }
    Future<Void> waiting = write();
    onLoop(() -> engine.close());
    Throwable why = failure(waiting);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertTrue(why.getMessage().contains("was closed"), why.getMessage());
    assertEquals(4, conn.posted.size(), "it was never posted");
  }

  @Test
  void closeWaitsForThePeersClosedEventThenDeletes() {
    open();
    Future<Void> closed = onLoop(() -> engine.close());
    settle();
    assertTrue(log.contains("disconnect"));
    assertTrue(!log.contains("delete"), "not before the peer answered: " + log);
    conn.events.add(CmEvent.CLOSED);
    onLoop(() -> io.fire(EVENT_FD));
    await(closed);
    assertTrue(log.contains("delete"));
  }

  @Test
  void closeWithNoAnswerFromThePeerDeletesAtTheTimeoutNotBefore() {
    open();
    Future<Void> closed = onLoop(() -> engine.close());
    advanceMs(CLOSE_TIMEOUT_MS - 1);
    settle();
    assertTrue(!closed.isComplete() && !log.contains("delete"), "before the timeout: " + log);

    advanceMs(1);

    await(closed);
    assertTrue(log.contains("delete"));
  }

  @Test
  void completionsAlreadyInTheCqAreDeliveredBeforeTheRestIsFailed() {
    open();
    Future<Void> done = write();
    Future<Void> lost = write();
    conn.complete(conn.posted.get(0));
    conn.disconnectAccepted = false; // nothing to wait for: finish at once
    onLoop(() -> engine.close());
    await(done);
    assertInstanceOf(RpmaConnectionClosedException.class, failure(lost));
  }

  @Test
  void aCloseFromACompletionsCallbackThatTearsDownAtOnceStillDeliversWhatTheCqHolds() {
    open();
    Future<Void> first = onLoop(() -> {
      PromiseInternal<Void> p = context.promise();
      engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, p);
      p.future().onComplete(ar -> {
        conn.disconnectAccepted = false; // nothing to wait for: the teardown runs at once
        engine.close();
      });
      return p.future();
    });
    List<Future<Void>> rest = List.of(write(), write(), write());
    for (FakeLibrpma.Post p : conn.posted) {
      conn.complete(p);
    }

    cqReady();

    await(first);
    for (Future<Void> f : rest) {
      await(f); // completed before the close: delivered, not failed as closed
    }
    assertEquals(0, conn.main.polled.nested, "a drain ran inside another");
    assertTrue(log.contains("delete"));
  }

  @Test
  void anOperationFlushedByTheDisconnectFailsAsClosedWithTheDeviceStatusAsCause() {
    open();
    Future<Void> w = write();
    onLoop(() -> engine.close());
    conn.fail(conn.last(), RpmaCompletionException.WR_FLUSH_ERR);
    conn.events.add(CmEvent.CLOSED);
    onLoop(() -> io.fire(EVENT_FD));
    Throwable why = failure(w);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertInstanceOf(RpmaCompletionException.class, why.getCause());
  }

  @Test
  void teardownTakesEveryFdOffTheLoopBeforeLibrpmaDeletesTheConnection() {
    open();
    await(closeUnanswered());
    int delete = log.indexOf("delete");
    for (int fd : new int[] {WAKEUP_FD, MAIN_CQ_FD, EVENT_FD}) {
      int unwatch = log.indexOf("unwatch " + fd);
      assertTrue(unwatch >= 0 && unwatch < delete, fd + " before delete: " + log);
    }
  }

  @Test
  void theWakeupFdIsClosedOnlyAfterItLeftTheLoop() {
    open();
    await(closeUnanswered());
    assertTrue(log.indexOf("unwatch " + WAKEUP_FD) < log.indexOf("close " + WAKEUP_FD), log
        .toString());
  }

  @Test
  void aPeerThatClosesFailsEverythingAndCallsTheCloseHandlerOnce() {
    open();
    Future<Void> w = write();
    List<Throwable> closedWith = watchClose();
    conn.events.add(CmEvent.CLOSED);
    conn.events.add(CmEvent.LOST);
    onLoop(() -> io.fire(EVENT_FD));
    assertTrue(failure(w).getMessage().contains("closed by the peer"));
    await(engine.whenClosed());
    settle();
    assertEquals(1, closedWith.size(), "once");
    assertTrue(closedWith.get(0).getMessage().contains("was closed by the peer"));
  }

  @Test
  void theCloseHandlerIsNotCalledWhenTheUserCloses() {
    open();
    List<Throwable> closedWith = watchClose();
    await(closeUnanswered());
    settle();
    assertEquals(List.of(), closedWith);
  }

  @Test
  void closingTwiceGivesTheSameFutureAndDeletesOnce() {
    open();
    Future<Void> first = onLoop(() -> engine.close());
    Future<Void> second = onLoop(() -> engine.close());
    advanceMs(CLOSE_TIMEOUT_MS);
    await(first);
    await(second);
    assertEquals(1, log.stream().filter("delete"::equals).count());
  }

  @Test
  void aFailedEventReadClosesTheConnection() {
    open();
    conn.failNextEvent = new IllegalStateException("EIO");
    onLoop(() -> io.fire(EVENT_FD));
    await(engine.whenClosed());
    assertInstanceOf(RpmaConnectionClosedException.class, failure(write()));
  }

  @Test
  void theWatchdogClosesAConnectionWhoseOperationsNeverCompleteAtTheCompletionTimeout() {
    open(options().setCompletionTimeoutMs(60));
    Future<Void> stuck = write();
    advanceMs(59);
    settle();
    assertTrue(!stuck.isComplete() && !log.contains("disconnect"), "not before: " + log);

    advanceMs(1);

    Throwable why = failure(stuck);
    assertTrue(why.getMessage().contains("no completion for 60 ms with 1 operations in flight"),
        why.getMessage());
  }

  @Test
  void theWatchdogNamesReceiverNotReadyAndAGonePeerAndHowToTellThemApartWhenSendsAreStuck() {
    open(options().setCompletionTimeoutMs(60));
    Future<Void> send = onLoop(() -> {
      io.vertx.core.internal.PromiseInternal<Void> p = context.promise();
      engine.submit(OpKind.SEND, local.held(), 0, null, 0, 16, 0, p);
      return p.future();
    });
    advanceMs(60);
    Throwable why = failure(send);
    assertTrue(why.getMessage().contains("1 of them sends"), why.getMessage());
    assertTrue(why.getMessage().contains("either receiver-not-ready"), why.getMessage());
    assertTrue(why.getMessage().contains("or the peer gone"), why.getMessage());
    assertTrue(why.getMessage().contains("To tell them apart"), why.getMessage());
    assertTrue(why.getMessage().contains("rcvd_rnr_err"), why.getMessage());
  }

  @Test
  void theWatchdogLeavesAnIdleConnectionAlone() {
    open(options().setCompletionTimeoutMs(40));
    advanceMs(200); // ten checks
    settle();
    assertTrue(!log.contains("disconnect"), log.toString());
    assertTrue(onLoop(engine::isOpen));
  }

  @Test
  void theWatchdogLeavesAConnectionWhoseOperationsCompleteAlone() {
    open(options().setCompletionTimeoutMs(40));
    for (int i = 0; i < 10; i++) { // one operation in flight all the time, each taking 20 ms
      Future<Void> w = write();
      advanceMs(20);
      conn.complete(conn.last());
      cqReady();
      await(w);
    }
    assertTrue(!log.contains("disconnect"), log.toString());
  }

  @Test
  void aClosedConnectionLeavesNoTimerBehind() {
    open(options().setCompletionTimeoutMs(40).setKeepAliveMs(50));
    await(closeUnanswered());
    assertEquals(0, onLoop(clock::pendingTimers), "watchdog, keepalive, close deadline");
  }
}
