package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An exception on any path the loop runs for a connection (its CM events, its CQ's drain, the
 * drain's continuation, its timers) closes the connection with that exception as the reason,
 * once, releases it once, and never reaches Vert.x. Errors, as a class that cannot be loaded
 * at the fd limit throws: librpma's own failures are RuntimeExceptions, handled where they
 * happen.
 */
class EngineEventPathTest extends EngineTestBase {

  /** What reached Vert.x's exception handler: an exception that escaped to Vert.x. */
  private final List<Throwable> reachedVertx = new CopyOnWriteArrayList<>();

  @BeforeEach
  void recordWhatReachesVertx() {
    vertx.exceptionHandler(reachedVertx::add);
  }

  @Test
  void anErrorOnTheCmEventPathClosesTheConnectionWithItAsTheReasonOnce() {
    open();
    List<Throwable> closedWith = watchClose();
    Future<Void> inFlight = write();
    Error error = new NoClassDefFoundError("dev/rpma/vertx/impl/engine/CloseReasons$1");
    conn.failNextEvent = error;

    onLoop(() -> io.fire(EVENT_FD));

    assertClosedOnceWith(error, closedWith);
    assertSame(error, rootCause(failure(inFlight)), "the operation in flight fails with it");
  }

  @Test
  void anErrorInADrainClosesTheConnectionWithItAsTheReasonOnce() {
    open();
    List<Throwable> closedWith = watchClose();
    Future<Void> inFlight = write();
    Error error = new NoClassDefFoundError("dev/rpma/vertx/Received");
    conn.main.failure = error;

    cqReady();

    assertClosedOnceWith(error, closedWith);
    assertSame(error, rootCause(failure(inFlight)));
  }

  @Test
  void anErrorInTheDrainsContinuationClosesTheConnectionWithItAsTheReasonOnce() {
    open(); // a budget of 4 completions: the fourth asks for a continuation
    List<Throwable> closedWith = watchClose();
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      writes.add(write());
    }
    Error error = new StackOverflowError();
    // on the loop, inside the first drain: only the continuation's polls meet it
    writes.get(3).onComplete(ar -> conn.main.failure = error);
    onLoop(() -> {
      conn.posted.forEach(conn::complete);
      return null;
    });

    cqReady();

    assertClosedOnceWith(error, closedWith);
    assertTrue(log.contains("signal " + WAKEUP_FD), "the continuation ran: " + log);
    for (Future<Void> w : writes) {
      await(w); // the first drain delivered them all
    }
  }

  @Test
  void anErrorInTheKeepAliveTimerClosesTheConnectionWithItAsTheReasonOnce() {
    open(options().setKeepAliveMs(50));
    List<Throwable> closedWith = watchClose();
    Error error = new NoClassDefFoundError("dev/rpma/vertx/impl/engine/QueuedOp");
    onLoop(() -> conn.refuseNextPost = error); // the probe's post
    advanceMs(50);

    assertClosedOnceWith(error, closedWith);
    assertTrue(log.contains("refused read"), "the probe met it: " + log);
  }

  @Test
  void anErrorInTheConnectTimerStillReleasesTheConnectionOnce() {
    onLoop(() -> engine = new ConnectionEngine(context, options(), "test connection", io,
        SYNC_SETUP, metrics));
    Error error = new NoClassDefFoundError("dev/rpma/vertx/impl/engine/ConnectionTimers");
    conn.failDisconnect = error; // the timeout's disconnect throws

    Future<Void> started = onLoop(() -> engine.start(conn)); // never established
    advanceMs(CONNECT_TIMEOUT_MS);

    Throwable why = failure(started);
    assertTrue(why.getMessage().contains("not established"), why.getMessage());
    await(engine.whenClosed());
    settle();
    assertTrue(Arrays.asList(why.getSuppressed()).contains(error), "beside the reason");
    assertReleasedOnce();
  }

  @Test
  void anErrorInTheWatchdogsTimerStillReleasesTheConnectionOnceWithItBesideTheReason() {
    open(options().setCompletionTimeoutMs(100));
    List<Throwable> closedWith = watchClose();
    Future<Void> stuck = write(); // never completes: the watchdog closes the connection
    Error error = new NoClassDefFoundError("dev/rpma/vertx/impl/engine/Watchdog");
    conn.failDisconnect = error; // and its disconnect throws

    advanceMs(100);
    Throwable why = failure(stuck);

    assertTrue(why.getMessage().contains("no completion for 100 ms"), why.getMessage());
    await(engine.whenClosed());
    settle();
    assertEquals(1, closedWith.size(), "close handler calls: " + closedWith);
    assertTrue(Arrays.asList(closedWith.get(0).getSuppressed()).contains(error),
        "beside the reason: " + closedWith.get(0));
    assertReleasedOnce();
  }

  @Test
  void anErrorInTheCloseTimersTeardownStillReleasesTheConnectionOnce() {
    open();
    Future<Void> inFlight = write();
    Error error = new NoClassDefFoundError("dev/rpma/vertx/impl/engine/CompletionChannel");
    conn.main.failure = error; // the teardown's last drain, when the peer never answered

    await(closeUnanswered()); // the peer's CLOSED never comes

    Throwable why = failure(inFlight);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertTrue(Arrays.asList(why.getCause().getSuppressed()).contains(error),
        "beside the reason it closed for: " + why);
    settle();
    assertReleasedOnce();
  }

  private void assertClosedOnceWith(Throwable error, List<Throwable> closedWith) {
    await(engine.whenClosed());
    settle();
    assertEquals(1, closedWith.size(), "close handler calls: " + closedWith);
    RpmaConnectionClosedException reason =
        assertInstanceOf(RpmaConnectionClosedException.class, closedWith.get(0));
    assertSame(error, reason.getCause(), "the reason: " + reason);
    assertTrue(reason.getMessage().contains("failed on its event loop"), reason.getMessage());
    assertFalse(onLoop(engine::isOpen));
    assertReleasedOnce();
  }

  private void assertReleasedOnce() {
    assertEquals(1, log.stream().filter("delete"::equals).count(), "deleted once: " + log);
    assertFalse(onLoop(() -> io.isWatched(EVENT_FD) || io.isWatched(MAIN_CQ_FD)
        || io.isWatched(WAKEUP_FD)), "every fd is off the loop");
    assertTrue(reachedVertx.isEmpty(), "reached Vert.x: " + reachedVertx);
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
