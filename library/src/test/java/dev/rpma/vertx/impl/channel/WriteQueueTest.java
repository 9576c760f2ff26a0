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

  private Promise<Void> write() {
    Promise<Void> p = Promise.promise();
    queue.add(new WriteQueue.Write(Buffer.buffer("m"), p));
    return p;
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
  void aSmallerMaxSizeCountsAtOnce() {
    write();
    write();
    queue.maxSize(2);
    assertTrue(queue.isFull());
  }
}
