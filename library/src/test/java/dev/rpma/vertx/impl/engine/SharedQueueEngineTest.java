package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaQueueClosedException;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedQueueEngine} on a real Vert.x context over {@link FakeSharedQueue} and
 * {@link FakeLoopIo}: matching messages to connections, flow control and close, on the host.
 * The device tests (SharedReceiveQueueTest) check the same against librpma.
 */
class SharedQueueEngineTest extends SharedQueueTestBase {

  @Test
  void eachMessageIsMatchedToTheConnectionOfItsQueuePair() {
    start(8, 8);
    TestMember a = new TestMember("a");
    TestMember b = new TestMember("b");
    attach(7, a);
    attach(9, b);
    Future<Message> first = queueRecv();
    Future<Message> second = queueRecv();

    srq.arrive(srq.posted.get(1), 9, 40);
    srq.arrive(srq.posted.get(0), 7, 12);
    rcqReady();

    assertEquals(new Message(a, 12, false, 0), await(first));
    assertEquals(new Message(b, 40, false, 0), await(second));
  }

  @Test
  void noMoreReceivesArePostedThanTheReceiveCqHoldsWhateverTheOrder() {
    start(16, 3);
    attach(1, new TestMember("a"));
    Random random = new Random(13);
    List<Future<Message>> all = new ArrayList<>();
    int arrived = 0;
    for (int round = 0; round < 200; round++) {
      if (random.nextBoolean()) {
        all.add(queueRecv());
      } else if (arrived < srq.posted.size()) {
        srq.arrive(srq.posted.get(arrived++), 1, 8);
        rcqReady();
      }
      int outstanding = srq.posted.size() - arrived;
      assertTrue(outstanding <= 3, "posted and not completed: " + outstanding);
      assertEquals(outstanding, (int) onLoop(queue::postedReceives));
    }
    while (arrived < all.size()) {
      srq.arrive(srq.posted.get(arrived++), 1, 8);
      rcqReady();
    }
    for (Future<Message> f : all) {
      assertEquals(8, await(f).bytes());
    }
  }

  @Test
  void aDetachedConnectionGetsTheMessagesThatArrivedBeforeItsQueuePairWasDestroyed() {
    start(8, 8);
    TestMember a = new TestMember("a");
    attach(5, a);
    Future<Message> received = queueRecv();
    srq.arrive(srq.posted.get(0), 5, 20); // in the CQ, its fd not fired yet

    onLoop(() -> {
      queue.detach(5, a);
      return null;
    });

    assertSame(a, await(received).from());
    assertEquals(0, (int) onLoop(queue::memberCount));
  }

  @Test
  void aNewQueuePairWithAReusedNumberTakesItOverOnlyAfterTheOldOnesMessages() {
    start(8, 8);
    TestMember old = new TestMember("old");
    TestMember next = new TestMember("next");
    attach(5, old);
    Future<Message> first = queueRecv();
    Future<Message> second = queueRecv();
    srq.arrive(srq.posted.get(0), 5, 10); // the old queue pair's last message

    attach(5, next);
    srq.arrive(srq.posted.get(1), 5, 11);
    rcqReady();

    assertSame(old, await(first).from());
    assertSame(next, await(second).from());
  }

  @Test
  void aDetachOfAMemberWhoseNumberWasTakenOverKeepsTheNewOne() {
    start(8, 8);
    TestMember old = new TestMember("old");
    TestMember next = new TestMember("next");
    attach(5, old);
    attach(5, next);

    onLoop(() -> {
      queue.detach(5, old);
      return null;
    });
    Future<Message> received = queueRecv();
    srq.arrive(srq.posted.get(0), 5, 3);
    rcqReady();

    assertSame(next, await(received).from());
  }

  @Test
  void anErrorCompletionFailsTheReceiveAndTellsTheConnectionItCameFrom() {
    start(8, 8);
    TestMember a = new TestMember("connection a");
    attach(3, a);
    Future<Message> received = queueRecv();

    srq.ready.add(new FakeSharedQueue.Wc(srq.posted.get(0).wrId(), 9, 0, false, 0, 3));
    rcqReady();

    RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class,
        failure(received));
    assertEquals(9, e.status());
    assertTrue(e.getMessage().contains("connection a"), e.getMessage());
    assertEquals(List.of(e), a.errors);
  }

  @Test
  void aMessageOnAQueuePairNobodyAttachedFailsItsReceiveNamingTheNumber() {
    start(8, 8);
    Future<Message> received = queueRecv();

    srq.arrive(srq.posted.get(0), 77, 5);
    rcqReady();

    Throwable e = failure(received);
    assertInstanceOf(IllegalStateException.class, e);
    assertTrue(e.getMessage().contains("queue pair 77"), e.getMessage());
  }

  @Test
  void aReceiveLibrpmaRefusesFailsAloneAndGivesItsRoomBack() {
    start(1, 1);
    srq.refuseNextRecv = new IllegalStateException("refused");

    Throwable e = failure(queueRecv());
    Future<Message> next = queueRecv();
    attach(2, new TestMember("a"));
    srq.arrive(srq.posted.get(0), 2, 1);
    rcqReady();

    assertEquals("refused", e.getMessage());
    assertEquals(1, await(next).bytes());
    assertEquals(0, local.holds);
  }

  @Test
  void closeFailsPostedAndWaitingReceivesWithQueueClosedAndDeletesOnlyAfterUnwatching() {
    start(1, 1);
    Future<Message> posted = queueRecv();
    Future<Message> waiting = queueRecv();

    await(onLoop(queue::close));

    assertInstanceOf(RpmaQueueClosedException.class, failure(posted));
    assertInstanceOf(RpmaQueueClosedException.class, failure(waiting));
    assertEquals(0, local.holds);
    assertTrue(log.indexOf("unwatch " + FakeSharedQueue.RCQ_FD) < log.indexOf("srq delete"),
        log.toString());
    assertFalse(io.isWatched(FakeSharedQueue.RCQ_FD));
  }

  @Test
  void closeDeliversWhatAlreadyArrivedBeforeFailingTheRest() {
    start(8, 8);
    TestMember a = new TestMember("a");
    attach(4, a);
    Future<Message> arrived = queueRecv();
    Future<Message> empty = queueRecv();
    srq.arrive(srq.posted.get(0), 4, 9);

    await(onLoop(queue::close));

    assertEquals(9, await(arrived).bytes());
    assertInstanceOf(RpmaQueueClosedException.class, failure(empty));
  }

  @Test
  void aReceiveGivenAfterStopTakingFailsWithQueueClosedAndReleasesItsRegion() {
    start(8, 8);
    onLoop(() -> {
      queue.stopTaking();
      return null;
    });

    Throwable e = failure(queueRecv());

    assertInstanceOf(RpmaQueueClosedException.class, e);
    assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    assertEquals(0, local.holds);
    assertTrue(srq.posted.isEmpty());
  }

  @Test
  void aFailingReceiveCqFailsEveryReceiveAndRefusesNewOnes() {
    start(1, 1);
    Future<Message> posted = queueRecv();
    Future<Message> waiting = queueRecv();
    srq.failCq = new IllegalStateException("device gone");

    rcqReady();

    assertInstanceOf(RpmaQueueClosedException.class, failure(posted));
    assertInstanceOf(RpmaQueueClosedException.class, failure(waiting));
    assertTrue(failure(queueRecv()).getMessage().contains("device gone"));
  }

  @Test
  void aBusyReceiveCqYieldsAfterItsBudgetAndGoesOnFromTheWakeUp() {
    start(16, 16);
    attach(1, new TestMember("a"));
    List<Future<Message>> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      all.add(queueRecv());
    }
    for (FakeSharedQueue.Recv r : srq.posted) {
      srq.arrive(r, 1, 1);
    }

    rcqReady();

    for (Future<Message> f : all) {
      assertEquals(1, await(f).bytes()); // budget 4: the rest came through the wake-up fd
    }
    assertTrue(log.stream().anyMatch(l -> l.startsWith("signal ")), log.toString());
  }
}
