package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Selective signalling: what the listeners of one batch of completions post goes out when the
 * batch ends, only the last with a completion of its own; the others complete with the next
 * completion of the send queue, in order.
 */
class EngineSelectiveSignallingTest extends BatchPostingTestBase {

  @Test
  void whatListenersOfOneBatchPostGoesOutTogetherOnlyTheLastSignalled() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    threeWritesEachPostingOne(next, new ArrayList<>());
    completeFirstThreeInOneBatch();
    assertEquals(6, conn.posted.size());
    assertEquals(List.of(true, true, true, false, false, true),
        conn.posted.stream().map(FakeLibrpma.Post::signalled).toList());
  }

  @Test
  void unsignalledOperationsCompleteInOrderWithTheNextSignalledOne() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    List<String> order = new ArrayList<>();
    threeWritesEachPostingOne(next, order);
    completeFirstThreeInOneBatch();
    settle();
    assertFalse(next.get(0).isComplete(), "no completion yet for the unsignalled ones");
    conn.complete(conn.posted.get(5));
    cqReady();
    settle();
    assertEquals(List.of("next 0 ok", "next 1 ok", "next 2 ok"), order);
    assertEquals(6, engine.stats().completions(), "operations completed, not device reports");
  }

  @Test
  void anUnsignalledOperationThatFailsCompletesTheOnesBeforeItThenFails() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    List<String> order = new ArrayList<>();
    threeWritesEachPostingOne(next, order);
    completeFirstThreeInOneBatch();
    conn.fail(conn.posted.get(4), 10); // RPMA_F_COMPLETION_ON_ERROR: reported since it failed
    cqReady();
    settle();
    assertTrue(next.get(0).succeeded(), "posted before the failed one: done");
    RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class,
        failure(next.get(1)));
    assertEquals(10, e.status());
    assertEquals(List.of("next 0 ok", "next 1 failed"), order.subList(0, 2));
  }

  @Test
  void aFlushIsPostedWithACompletionOfItsOwn() {
    open(roomy());
    Future<Void> w = write();
    onLoop(() -> w.onComplete(ar -> {
      engine.submit(OpKind.FLUSH, null, 0, remote.held(), 0, 8, 0, context.promise());
      engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, context.promise());
    }));
    conn.complete(conn.last());
    cqReady();
    assertEquals(List.of(OpKind.FLUSH, OpKind.WRITE),
        conn.posted.subList(1, 3).stream().map(FakeLibrpma.Post::kind).toList());
    assertTrue(conn.posted.get(1).signalled());
    assertTrue(conn.posted.get(2).signalled());
  }

  @Test
  void withOneOperationInFlightEveryPostIsSignalled() {
    open(roomy());
    Future<Void> w = write();
    onLoop(() -> w.onComplete(ar ->
        engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, context.promise())));
    conn.complete(conn.last());
    cqReady();
    assertEquals(2, conn.posted.size());
    assertTrue(conn.posted.get(1).signalled());
  }

  @Test
  void aRefusedPostThatWasToReportTheOnesBeforeItClosesTheConnection() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    List<Throwable> closedWith = watchClose();
    threeWritesEachPostingOne(next, new ArrayList<>());
    conn.refuseNextSignalledPost = new IllegalStateException("refused");
    completeFirstThreeInOneBatch();
    settle();
    assertEquals("refused", failure(next.get(2)).getMessage());
    Throwable why = failure(next.get(0));
    assertTrue(why.getMessage().contains("without a completion of their own"), why.getMessage());
    assertTrue(failure(next.get(1)).getMessage().contains("without a completion of their own"));
    assertEquals(1, closedWith.size());
  }

  @Test
  void unsignalledOperationsBeforeAFlushedOneOfAFailedQueuePairFail() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    threeWritesEachPostingOne(next, new ArrayList<>());
    Future<Void> failing = write(); // posted before the three the listeners post
    completeFirstThreeInOneBatch(); // they go out: two unsignalled, one signalled
    conn.fail(conn.posted.get(3), 10); // the queue pair's first error
    conn.fail(conn.posted.get(6), 5); // then the flush of the signalled one behind it
    cqReady();
    settle();
    assertInstanceOf(RpmaCompletionException.class, failure(failing));
    for (int i = 0; i < 3; i++) {
      assertFalse(next.get(i).succeeded(), "flushed, never run: next " + i);
    }
  }
}
