package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A peer's set-up calls: one at a time, in call order, no worker parked waiting for a turn. */
class SetupQueueTest {

  private static final long DEADLINE_SECONDS = 30; // only to fail instead of hanging

  private final Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(2));
  private final ContextInternal context = (ContextInternal) vertx.getOrCreateContext();
  private final SetupQueue queue = new SetupQueue();

  @AfterEach
  void closeVertx() throws Exception {
    vertx.close().await(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  @Test
  void callsRunOneAtATimeInCallOrder() throws Exception {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      int n = i;
      results.add(queue.submit(context, () -> {
        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        order.add(n);
        Thread.onSpinWait();
        running.decrementAndGet();
        return n;
      }));
    }

    for (int i = 0; i < 20; i++) {
      assertEquals(i, results.get(i).await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    }
    assertEquals(1, mostAtOnce.get());
    assertEquals(java.util.stream.IntStream.range(0, 20).boxed().toList(), order);
  }

  @Test
  void callsWaitingTheirTurnLeaveTheWorkerPoolFree() throws Exception {
    CountDownLatch firstMayReturn = new CountDownLatch(1);
    Future<String> first = queue.submit(context, () -> {
      firstMayReturn.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
      return "first";
    });
    Future<String> second = queue.submit(context, () -> "second");
    Future<String> third = queue.submit(context, () -> "third");

    // two workers: one runs the first call; the calls waiting behind it hold none, so the
    // application's own blocking code still gets the other (with a lock, they would park it)
    String application = context.executeBlocking(() -> "application's", false)
        .await(DEADLINE_SECONDS, TimeUnit.SECONDS);

    assertEquals("application's", application);
    assertFalse(second.isComplete());
    firstMayReturn.countDown();
    assertEquals("first", first.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    assertEquals("second", second.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    assertEquals("third", third.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void aFailedCallFailsItsFutureAndTheNextCallStillRuns() throws Exception {
    Future<String> failing = queue.submit(context, () -> {
      throw new IllegalStateException("set-up failed");
    });
    Future<String> next = queue.submit(context, () -> "next");

    assertEquals("next", next.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    // Each result reaches its Future by a hop to the caller's context: wait for the failure's
    // own hop rather than assume it landed before the next call's.
    ExecutionException failure = assertThrows(ExecutionException.class,
        () -> failing.toCompletionStage().toCompletableFuture()
            .get(DEADLINE_SECONDS, TimeUnit.SECONDS));
    assertEquals("set-up failed", failure.getCause().getMessage());
  }

  @Test
  void aResultIsDeliveredOnTheCallersContext() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    AtomicInteger onCaller = new AtomicInteger();
    context.runOnContext(v -> queue.submit(context, () -> "made").onComplete(ar -> {
      if (ContextInternal.current().unwrap() == context.unwrap()) {
        onCaller.incrementAndGet();
      }
      delivered.countDown();
    }));

    assertTrue(delivered.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, onCaller.get());
  }

  @Test
  void aCallThePoolRefusesFailsAndDoesNotStopTheQueue() throws Exception {
    Vertx closing = Vertx.vertx();
    ContextInternal closed = (ContextInternal) closing.getOrCreateContext();
    closing.close().await(DEADLINE_SECONDS, TimeUnit.SECONDS);

    Future<String> refused = queue.submit(closed, () -> "never");
    Future<String> after = queue.submit(context, () -> "after");

    assertEquals("after", after.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    assertTrue(refused.failed(), "refused by a closed pool");
    assertInstanceOf(RejectedExecutionException.class, refused.cause());
  }
}
