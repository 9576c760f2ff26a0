package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Future;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A shared receive queue reports its receives to the metrics as a connection reports its own. */
class SharedQueueMetricsTest extends SharedQueueTestBase {

  private final RecordingMetrics recorded = new RecordingMetrics();

  @BeforeEach
  void recordMetrics() {
    metrics = recorded;
  }

  @Test
  void aReceiveIsStartedPostedAndEndedOnceWithItsLength() {
    start(8, 8);
    attach(3, new TestMember("a"));
    Future<Message> received = queueRecv();
    srq.arrive(srq.posted.get(0), 3, 12);
    rcqReady();

    assertEquals(12, await(received).bytes());
    assertEquals(List.of("opened", "started 1 recv 64", "posted 1", "ended 1 ok"),
        recorded.events);
  }

  @Test
  void aReceiveThatWaitsForRoomIsReportedQueuedThenPostedWhenRoomFrees() {
    start(1, 1);
    attach(3, new TestMember("a"));
    queueRecv();
    Future<Message> second = queueRecv();
    assertEquals(List.of("started 2 recv 64", "queued 2"), tail(2));

    srq.arrive(srq.posted.get(0), 3, 1);
    rcqReady();
    srq.arrive(srq.posted.get(1), 3, 2);
    rcqReady();

    assertEquals(2, await(second).bytes());
    assertEquals(List.of("ended 1 ok", "posted 2", "ended 2 ok"), tail(3));
  }

  @Test
  void aMessageFromNoAttachedQueuePairIsReportedAsAFailure() {
    start(8, 8);
    Future<Message> received = queueRecv();
    srq.arrive(srq.posted.get(0), 99, 5);
    rcqReady();

    failure(received);
    assertEquals("ended 1 failed", tail(1).get(0));
  }

  @Test
  void closeEndsPostedAndWaitingReceivesOnceThenClosesTheMetrics() {
    start(1, 1);
    queueRecv();
    queueRecv();

    await(onLoop(queue::close));

    List<String> ends = recorded.events.stream().filter(e -> e.startsWith("ended")).toList();
    assertEquals(List.of("ended 1 failed", "ended 2 failed"), ends.stream().sorted().toList());
    assertEquals("closed", tail(1).get(0));
  }

  @Test
  void aReceiveOnAClosedQueueFailsAndReachesNoMetricsAfterTheirClose() {
    start(1, 1);
    await(onLoop(queue::close));
    List<String> untilClosed = List.copyOf(recorded.events);
    assertEquals("closed", untilClosed.get(untilClosed.size() - 1));

    failure(queueRecv());

    assertEquals(untilClosed, recorded.events, "nothing after closed()");
  }

  private List<String> tail(int n) {
    List<String> all = recorded.events;
    return all.subList(all.size() - n, all.size());
  }
}
