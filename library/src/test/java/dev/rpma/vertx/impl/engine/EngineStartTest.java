package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

/** How a connection starts: what goes on the loop, when it counts as established, timeouts. */
class EngineStartTest extends EngineTestBase {

  private Future<Void> startOnly() {
    onLoop(() -> {
      engine = new ConnectionEngine(context, options(), "test connection", io,
          SYNC_SETUP, OperationMetrics.NONE);
      return null;
    });
    return onLoop(() -> engine.start(conn));
  }

  @Test
  void startCompletesOnlyWhenTheEstablishedEventArrives() {
    Future<Void> started = startOnly();
    settle();
    assertFalse(started.isComplete(), "not before ESTABLISHED");
    conn.events.add(CmEvent.ESTABLISHED);
    onLoop(() -> io.fire(EVENT_FD));
    await(started);
  }

  @Test
  void theWakeupAndCompletionFdsGoOnTheLoopBeforeTheEventFd() {
    startOnly();
    settle();
    assertEquals(java.util.List.of("watch " + WAKEUP_FD, "watch " + MAIN_CQ_FD,
        "watch " + EVENT_FD), log);
  }

  @Test
  void aReceiveCqIsWatchedToo() {
    conn.recv = conn.new FakeCq(101);
    startOnly();
    settle();
    assertTrue(io.isWatched(101));
  }

  @Test
  void aSharedChannelIsWatchedInsteadOfEachCq() {
    onLoop(() -> {
      engine = new ConnectionEngine(context, options().setSharedCompletionChannel(true), "c", io,
          SYNC_SETUP, OperationMetrics.NONE);
      return engine.start(conn);
    });
    settle();
    assertTrue(io.isWatched(300));
    assertFalse(io.isWatched(MAIN_CQ_FD));
  }

  @Test
  void theRemotePrivateDataIsReadAtEstablished() {
    open();
    assertArrayEquals(new byte[] {42}, onLoop(() -> engine.remotePrivateData()));
  }

  @Test
  void aConnectionNeverEstablishedFailsAtTheConnectTimeoutAndIsDeleted() {
    Future<Void> started = startOnly();
    advanceMs(CONNECT_TIMEOUT_MS - 1);
    settle();
    assertFalse(started.isComplete(), "not before the connect timeout");

    advanceMs(1);

    Throwable why = failure(started);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertTrue(why.getMessage().contains("not established within 200 ms"), why.getMessage());
    settle();
    assertTrue(log.contains("delete"), log.toString());
  }

  @Test
  void aSetUpFailureTearsTheConnectionDownAtOnce() {
    conn.failMainCq = new IllegalStateException("no CQ");
    Future<Void> started = startOnly();
    Throwable why = failure(started);
    assertTrue(why.getMessage().contains("set-up failed"), why.getMessage());
    settle();
    assertTrue(log.contains("disconnect") && log.contains("delete"), log.toString());
    assertTrue(log.indexOf("close " + WAKEUP_FD) < log.indexOf("delete"), log.toString());
  }

  @Test
  void aRejectedConnectFailsTheStart() {
    Future<Void> started = startOnly();
    conn.events.add(CmEvent.REJECTED);
    onLoop(() -> io.fire(EVENT_FD));
    Throwable why = failure(started);
    assertTrue(why.getMessage().contains("rejected by the peer"), why.getMessage());
  }

  @Test
  void aWakeupFdThatCannotBeMadeDisconnectsAtOnceInsteadOfHalfStarting() {
    io.failWakeup = new IllegalStateException("eventfd() failed, errno 24 (EMFILE)");
    Future<Void> started = startOnly();
    Throwable why = failure(started);
    assertTrue(why.getMessage().contains("set-up failed"), why.getMessage());
    settle();
    assertEquals(java.util.List.of("disconnect", "delete"), log);
  }
}
