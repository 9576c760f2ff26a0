package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The safety net for regions nobody closes, with facades and frees that stand for a region's
 * (the device suite's {@code ForgottenRegionTest} shows it on registered memory): a forgotten
 * one is freed once, at a later collect, on the caller's thread; a closed one never again.
 */
class ForgottenRegionsTest {

  /** Tracks a facade nobody holds once this returns; the count of its frees. */
  private static AtomicInteger trackForgotten() {
    AtomicInteger frees = new AtomicInteger();
    ForgottenRegions.track(new Object(), frees::incrementAndGet);
    return frees;
  }

  /** Collects, with the collector run, until {@code done} has a free or 20 s pass. */
  private static void collectUntilFreed(AtomicInteger done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (done.get() == 0 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(10);
      ForgottenRegions.collect();
    }
  }

  @Test
  void aRegionNobodyHoldsIsFreedOnceAtALaterCollect() throws InterruptedException {
    AtomicInteger frees = trackForgotten();

    collectUntilFreed(frees);
    System.gc();
    ForgottenRegions.collect();

    assertEquals(1, frees.get());
  }

  @Test
  void aRegionClosedByItsUserIsNotFreedWhenItBecomesUnreachable() throws InterruptedException {
    AtomicInteger closedFrees = new AtomicInteger();
    RefCounted closedLife = new RefCounted(closedFrees::incrementAndGet);
    Object facade = new Object();
    ForgottenRegions.Tracked tracked = ForgottenRegions.track(facade, closedLife::close);
    tracked.closed();
    closedLife.close();
    facade = null;
    AtomicInteger forgotten = trackForgotten();

    // the forgotten one's free shows that the collector has been through both
    collectUntilFreed(forgotten);

    assertEquals(1, forgotten.get(), "the control region was freed");
    assertEquals(1, closedFrees.get(), "the closed region was freed by its close only");
  }

  @Test
  void aFreeThatFailsDoesNotStopTheOthersNorTheCaller() throws InterruptedException {
    ForgottenRegions.track(new Object(), () -> {
      throw new IllegalStateException("deregistration refused");
    });
    AtomicInteger other = trackForgotten();

    collectUntilFreed(other);

    assertEquals(1, other.get());
  }

  @Test
  void aFreeMayCloseARegionAlreadyClosedWithoutFreeingItTwice() {
    AtomicInteger frees = new AtomicInteger();
    RefCounted life = new RefCounted(frees::incrementAndGet);
    Runnable free = life::close;

    life.close();
    free.run();

    assertEquals(1, frees.get());
    assertTrue(life.isClosed());
  }
}
