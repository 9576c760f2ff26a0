package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the engine reports to the metrics: each step of each operation, once, in order. */
class EngineMetricsTest extends EngineTestBase {

  private final RecordingMetrics recorded = new RecordingMetrics();

  @BeforeEach
  void recordMetrics() {
    metrics = recorded;
  }

  @Test
  void anOperationIsStartedPostedAndEndedOnceWithItsLength() {
    open();
    write();
    conn.complete(conn.last());
    cqReady();
    assertEquals(List.of("opened", "started 1 write 8", "posted 1", "ended 1 ok"),
        recorded.events);
  }

  @Test
  void anOperationThatWaitsForRoomIsReportedQueuedThenPosted() {
    open();
    for (int i = 0; i < 5; i++) {
      write();
    }
    assertEquals(List.of("started 5 write 8", "queued 5"), tail(2));
    conn.complete(conn.posted.get(0));
    cqReady();
    assertEquals(List.of("ended 1 ok", "posted 5"), tail(2));
  }

  @Test
  void aFailedCompletionIsReportedAsAFailure() {
    open();
    write();
    conn.fail(conn.last(), 5);
    cqReady();
    // (the error then closes the connection: "closed" may follow)
    assertEquals(List.of("ended 1 failed"),
        recorded.events.stream().filter(e -> e.startsWith("ended")).toList());
  }

  @Test
  void closeEndsWhatWaitedAndWhatWasInFlightThenClosesTheMetrics() {
    open();
    for (int i = 0; i < 5; i++) {
      write();
    }
    await(closeUnanswered());
    List<String> ends = recorded.events.stream().filter(e -> e.startsWith("ended")).toList();
    assertEquals(5, ends.size(), "every operation ended once: " + recorded.events);
    assertEquals(5, ends.stream().filter(e -> e.endsWith("failed")).count());
    assertEquals("closed", tail(1).get(0));
  }

  @Test
  void anOperationOnAClosedConnectionFailsAndReachesNoMetricsAfterTheirClose() {
    open();
    await(closeUnanswered());
    List<String> untilClosed = List.copyOf(recorded.events);
    assertEquals("closed", untilClosed.get(untilClosed.size() - 1));

    Throwable why = failure(write());

    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertEquals(untilClosed, recorded.events, "nothing after closed()");
  }

  @Test
  void anOperationIssuedWhileTheConnectionClosesIsEndedBeforeTheMetricsClose() {
    open();
    Future<Void> closing = onLoop(() -> {
      Future<Void> closed = engine.close(); // waits for the peer's CLOSED event
      engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, context.promise());
      return closed;
    });
    conn.events.add(CmEvent.CLOSED);
    onLoop(() -> io.fire(EVENT_FD));
    await(closing);

    assertEquals(List.of("opened", "started 1 write 8", "ended 1 failed", "closed"),
        recorded.events);
  }

  @Test
  void keepAliveProbesAreNotReported() {
    open(options().setKeepAliveMs(20));
    advanceMs(20);
    assertEquals(1, onLoop(() -> conn.posted.size()), "a probe was sent");
    conn.complete(conn.last());
    cqReady();
    advanceMs(40); // and another, after an interval with the first's completion
    settle();
    assertEquals(2, onLoop(() -> conn.posted.size()), "a second probe was sent");
    assertEquals(List.of("opened"), recorded.events);
  }

  private List<String> tail(int n) {
    List<String> all = recorded.events;
    return all.subList(all.size() - n, all.size());
  }
}
