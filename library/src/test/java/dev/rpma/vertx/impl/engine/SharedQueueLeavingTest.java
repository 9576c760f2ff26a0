package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Connections coming and going on a {@link SharedQueueEngine}, on the host: a closing
 * connection gets every message already in the queue's CQ, in order, whatever the drain budget;
 * a detach or close asked for from a receive's callback waits for the drain it was asked in
 * (the fake, like JniCompletionQueue, polls each batch into one buffer, so a drain inside a
 * drain would lose a batch); a connection's messages wait until it is usable.
 */
class SharedQueueLeavingTest extends SharedQueueTestBase {

  /** Every message delivered so far, in delivery order (recorded on the loop). */
  private final List<Message> got = new CopyOnWriteArrayList<>();
  private final List<Throwable> failed = new CopyOnWriteArrayList<>();

  /** {@code count} receives whose messages go to {@link #got}, each then to {@code then}. */
  private void receive(int count, Consumer<Message> then) {
    onLoop(() -> {
      for (int i = 0; i < count; i++) {
        PromiseInternal<Message> p = context.promise();
        queue.submit(local.held(), 0, 64, p);
        p.future().onComplete(ar -> {
          if (ar.failed()) {
            failed.add(ar.cause());
            return;
          }
          got.add(ar.result());
          then.accept(ar.result());
        });
      }
      return null;
    });
  }

  /** Message i (from 1) arrives in receive i-1 from {@code from[(i-1) % from.length]}. */
  private void arriveInTurn(int count, int... from) {
    for (int i = 0; i < count; i++) {
      srq.arrive(srq.posted.get(i), from[i % from.length], i + 1);
    }
  }

  private static List<Message> messages(TestMember from, int... sizes) {
    List<Message> out = new ArrayList<>();
    for (int size : sizes) {
      out.add(new Message(from, size, false, 0));
    }
    return out;
  }

  private List<Message> gotFrom(TestMember member) {
    return got.stream().filter(m -> m.from() == member).toList();
  }

  @Test
  void aClosingConnectionGetsAllItsMessagesInOrderBeforeItDetachesWhateverTheBudget() {
    start(64, 64); // drain batch 2, budget 4: a budgeted drain takes 4 of the 40
    TestMember a = new TestMember("a");
    attach(5, a);
    receive(40, m -> { });
    arriveInTurn(40, 5); // its 40 sends completed: all 40 are in the CQ

    detach(5, a);
    settle();

    int[] sizes = new int[40];
    for (int i = 0; i < 40; i++) {
      sizes[i] = i + 1;
    }
    assertEquals(messages(a, sizes), got);
    assertEquals(List.of(), failed);
    assertEquals(0, (int) onLoop(queue::memberCount));
  }

  @Test
  void aDetachFromAReceiveCallbackWaitsForTheDrainAndEveryMessageArrivesOnceInOrder() {
    start(64, 64);
    TestMember a = new TestMember("a");
    TestMember b = new TestMember("b");
    attach(5, a);
    attach(6, b);
    // a's first message closes a, and its close finishes at once: the queue's close listener
    // detaches it from inside the drain that delivered the message
    receive(8, m -> {
      if (m.from() == a && m.bytes() == 1) {
        queue.detach(5, a);
      }
    });
    arriveInTurn(8, 5, 6);

    rcqReady();
    settle();

    assertEquals(messages(a, 1, 3, 5, 7), gotFrom(a));
    assertEquals(messages(b, 2, 4, 6, 8), gotFrom(b));
    assertEquals(8, got.size());
    assertEquals(List.of(), failed);
    assertEquals(0, srq.polled.nested, "a drain ran inside another");
  }

  @Test
  void aQueueClosedFromAReceiveCallbackDeliversEverythingThatArrivedFirst() {
    start(64, 64);
    TestMember a = new TestMember("a");
    attach(5, a);
    receive(8, m -> {
      if (m.bytes() == 1) {
        queue.close();
      }
    });
    arriveInTurn(6, 5); // two receives stay empty

    rcqReady();
    settle();

    assertEquals(messages(a, 1, 2, 3, 4, 5, 6), got);
    assertEquals(2, failed.size());
    assertTrue(srq.deleted);
    assertEquals(0, srq.polled.nested, "a drain ran inside another");
  }

  @Test
  void aConnectionsMessagesWaitUntilItIsUsableThenArriveInOrder() {
    start(8, 8);
    TestMember accepting = new TestMember("accepting");
    TestMember open = new TestMember("open");
    attachNotUsableYet(5, accepting);
    attach(6, open);
    receive(4, m -> { });
    arriveInTurn(3, 5, 6, 5);
    rcqReady();
    settle();
    assertEquals(messages(open, 2), got, "only the usable connection's message");

    onLoop(() -> {
      queue.usable(accepting);
      return null;
    });
    srq.arrive(srq.posted.get(3), 5, 4);
    rcqReady();
    settle();

    assertEquals(messages(accepting, 1, 3, 4), gotFrom(accepting));
  }

  @Test
  void aConnectionThatNeverBecameUsableStillGetsItsMessagesWhenItDetaches() {
    start(8, 8);
    TestMember failedAccept = new TestMember("failed accept");
    attachNotUsableYet(5, failedAccept);
    receive(2, m -> { });
    arriveInTurn(2, 5);
    rcqReady();
    settle();
    assertEquals(List.of(), got);

    detach(5, failedAccept);
    settle();

    assertEquals(messages(failedAccept, 1, 2), got);
  }
}
