package dev.rpma.vertx.impl.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/** The write side's queue: full, drained at half, failed on close. */
class WriteQueueTest {

  private final WriteQueue queue = new WriteQueue(4);
  private int drains;

  /** A write made on the channel's context: counted, then queued at once. */
  private Promise<Void> write() {
    queue.reserve();
    return arrive();
  }

  /** A write counted on its own thread reaches the context. */
  private Promise<Void> arrive() {
    Promise<Void> p = Promise.promise();
    queue.add(new WriteQueue.Write(Buffer.buffer("m"), p));
    return p;
  }

  /** {@code n} writes made on another thread, whose hops have not reached the context yet. */
  private void writeOnAnotherThread(int n) throws InterruptedException {
    Thread writer = new Thread(() -> {
      for (int i = 0; i < n; i++) {
        queue.reserve();
      }
    });
    writer.start();
    writer.join();
  }

  @Test
  void fullAtItsMaxSize() {
    for (int i = 0; i < 3; i++) {
      write();
    }
    assertFalse(queue.isFull());
    write();
    assertTrue(queue.isFull());
  }

  @Test
  void theDrainHandlerRunsOnceTheQueueIsDownToHalfAfterBeingFull() {
    queue.drainHandler(v -> drains++);
    for (int i = 0; i < 4; i++) {
      write();
    }
    queue.poll();
    queue.checkDrain();
    assertEquals(0, drains);
    queue.poll();
    queue.checkDrain();
    assertEquals(1, drains);
    queue.checkDrain();
    assertEquals(1, drains);
  }

  @Test
  void noDrainWhenTheQueueWasNeverFull() {
    queue.drainHandler(v -> drains++);
    write();
    queue.poll();
    queue.checkDrain();
    assertEquals(0, drains);
  }

  @Test
  void failAllFailsEveryWaitingWriteInOrder() {
    Promise<Void> a = write();
    Promise<Void> b = write();
    IllegalStateException why = new IllegalStateException("closed");
    queue.failAll(why);
    assertTrue(a.future().failed());
    assertTrue(b.future().failed());
    assertEquals(why, b.future().cause());
    assertTrue(queue.isEmpty());
  }

  @Test
  void writesMadeOnAnotherThreadMakeItFullBeforeTheyReachTheContext()
      throws InterruptedException {
    writeOnAnotherThread(3);
    assertFalse(queue.isFull());
    writeOnAnotherThread(1);
    assertTrue(queue.isFull());
    assertEquals(4, queue.size());
    assertTrue(queue.isEmpty(), "none has reached the context");
  }

  @Test
  void aWriteRefusedOnTheContextIsNoLongerCounted() throws InterruptedException {
    writeOnAnotherThread(4);
    queue.cancel();
    assertFalse(queue.isFull());
    assertEquals(3, queue.size());
  }

  @Test
  void writesCountedOnManyThreadsAtOnceAreAllCounted() throws InterruptedException {
    Thread[] writers = new Thread[4];
    for (int t = 0; t < writers.length; t++) {
      writers[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          queue.reserve();
        }
      });
      writers[t].start();
    }
    for (Thread w : writers) {
      w.join();
    }
    assertEquals(40_000, queue.size());
  }

  @Test
  void aQueueFilledFromAnotherThreadDrainsOnceDownToHalf() throws InterruptedException {
    queue.drainHandler(v -> drains++);
    writeOnAnotherThread(4);
    for (int i = 0; i < 4; i++) {
      arrive();
    }
    queue.poll();
    queue.checkDrain();
    assertEquals(0, drains);
    queue.poll();
    queue.checkDrain();
    assertEquals(1, drains);
  }

  @Test
  void aDrainOwedWhileNoHandlerWasSetGoesToTheNextHandlerSet() throws InterruptedException {
    writeOnAnotherThread(4);
    for (int i = 0; i < 4; i++) {
      arrive();
      queue.poll(); // sent at once: down to half before the writer set its handler
      queue.checkDrain();
    }
    queue.drainHandler(v -> drains++);
    assertEquals(1, drains);
    queue.drainHandler(v -> drains++);
    assertEquals(1, drains, "owed once");
  }

  @Test
  void aSmallerMaxSizeCountsAtOnce() {
    write();
    write();
    queue.maxSize(2);
    assertTrue(queue.isFull());
  }
}
