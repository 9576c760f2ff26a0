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

  /** The send side takes the oldest write, then checks for a drain, as it does on the loop. */
  private void sendOne() {
    queue.poll();
    queue.checkDrain();
  }

  /** {@code n} writes made on another thread, whose hops have not reached the context yet. */
  private void writeOnAnotherThread(int n) throws InterruptedException {
    writingOnAnotherThread(n).join();
  }

  /** A thread making {@code n} writes, started. */
  private Thread writingOnAnotherThread(int n) {
    Thread writer = new Thread(() -> {
      for (int i = 0; i < n; i++) {
        queue.reserve();
      }
    });
    writer.start();
    return writer;
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
    sendOne();
    assertEquals(0, drains);
    sendOne();
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
      writers[t] = writingOnAnotherThread(10_000);
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
    sendOne();
    assertEquals(0, drains);
    sendOne();
    assertEquals(1, drains);
  }

  @Test
  void aDrainOwedWhileNoHandlerWasSetGoesToTheNextHandlerSet() throws InterruptedException {
    writeOnAnotherThread(4);
    for (int i = 0; i < 4; i++) {
      arrive();
      sendOne(); // sent at once: down to half before the writer set its handler
    }
    queue.drainHandler(v -> drains++);
    assertEquals(1, drains);
    queue.drainHandler(v -> drains++);
    assertEquals(1, drains, "owed once");
  }

  @Test
  void aHandlerSetJustAfterADrainThatWentToTheHandlerBeforeItGetsOneToo()
      throws InterruptedException {
    int[] earlier = new int[1];
    queue.drainHandler(v -> earlier[0]++);
    writeOnAnotherThread(4); // the writer sees it full, then sets a handler (hopping)
    for (int i = 0; i < 4; i++) {
      arrive();
      sendOne(); // meanwhile the loop sends them all: the drain goes to the earlier handler
    }
    assertEquals(1, earlier[0]);

    queue.drainHandler(v -> drains++);

    assertEquals(1, drains, "the writer waiting for a drain is not left waiting");
  }

  @Test
  void aHandlerSetByTheDrainHandlerItselfIsNotCalledAtOnce() throws InterruptedException {
    queue.drainHandler(v -> queue.drainHandler(w -> drains++));
    writeOnAnotherThread(4);
    for (int i = 0; i < 4; i++) {
      arrive();
      sendOne();
    }
    assertEquals(0, drains);
  }

  @Test
  void aHandlerSetWhileADrainIsOwedWaitsForIt() throws InterruptedException {
    writeOnAnotherThread(4);
    for (int i = 0; i < 4; i++) {
      arrive();
    }
    queue.drainHandler(v -> drains++);
    assertEquals(0, drains);
    sendOne();
    sendOne();
    assertEquals(1, drains);
  }

  @Test
  void aHandlerSetBeforeTheQueueWasEverFullIsNotCalled() {
    write();
    queue.drainHandler(v -> drains++);
    assertEquals(0, drains);
  }

  @Test
  void aSmallerMaxSizeCountsAtOnce() {
    write();
    write();
    queue.maxSize(2);
    assertTrue(queue.isFull());
  }

  @Test
  void aQueueMadeFullByASmallerMaxSizeOwesADrain() {
    queue.drainHandler(v -> drains++);
    write();
    write();
    queue.maxSize(2);
    sendOne();
    assertEquals(1, drains);
  }
}
