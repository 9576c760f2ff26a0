package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaQueueClosedException;
import io.vertx.core.Future;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An exception on a shared queue's drain path closes the queue with it as the reason, once:
 * its receives fail with it, its fds leave the loop, its owner is told to close it (and what
 * is attached); nothing reaches Vert.x.
 */
class SharedQueueEventPathTest extends SharedQueueTestBase {

  @Test
  void anErrorInTheQueuesDrainClosesItWithThatReasonOnce() {
    List<Throwable> reachedVertx = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(reachedVertx::add);
    start(8, 8);
    AtomicInteger ownerCloses = new AtomicInteger();
    onLoop(() -> {
      queue.onFailed(ownerCloses::incrementAndGet);
      return null;
    });
    attach(7, new TestMember("a"));
    Future<Message> posted = queueRecv();
    Error error = new NoClassDefFoundError("dev/rpma/vertx/SharedReceived");
    srq.failCq = error;
    srq.arrive(srq.posted.get(0), 7, 12);

    rcqReady();

    RpmaQueueClosedException why = assertInstanceOf(RpmaQueueClosedException.class,
        failure(posted).getCause());
    assertSame(error, why.getCause(), "the reason: " + why);
    assertTrue(why.getMessage().contains("failed on its event loop"), why.getMessage());
    assertEquals(1, ownerCloses.get(), "its owner closes it, once");
    assertFalse(onLoop(() -> io.isWatched(FakeSharedQueue.RCQ_FD)), "its CQ is off the loop");
    Throwable later = failure(queueRecv());
    assertSame(why, later.getCause(), "a later receive is refused with the same reason");
    assertTrue(reachedVertx.isEmpty(), "reached Vert.x: " + reachedVertx);
  }
}
