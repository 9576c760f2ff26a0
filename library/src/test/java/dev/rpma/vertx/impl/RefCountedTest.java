package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RefCountedTest {

  @Test
  void closingAnUnusedObjectFreesItAtOnce() {
    AtomicInteger freed = new AtomicInteger();
    RefCounted r = new RefCounted(freed::incrementAndGet);

    r.close();

    assertEquals(1, freed.get());
  }

  @Test
  void closingWhileInUseFreesAfterTheLastRelease() {
    AtomicInteger freed = new AtomicInteger();
    RefCounted r = new RefCounted(freed::incrementAndGet);
    r.tryAcquire();
    r.tryAcquire();

    r.close();
    r.release();
    assertEquals(0, freed.get());
    r.release();

    assertEquals(1, freed.get());
  }

  @Test
  void aClosedObjectCannotBeAcquiredAndIsFreedOnce() {
    AtomicInteger freed = new AtomicInteger();
    RefCounted r = new RefCounted(freed::incrementAndGet);
    r.close();

    assertFalse(r.tryAcquire());
    assertFalse(r.close());
    assertTrue(r.isClosed());
    assertEquals(1, freed.get());
  }
}
