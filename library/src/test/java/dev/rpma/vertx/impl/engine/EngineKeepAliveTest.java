package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.OpKind;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Keepalive of an idle connection: zero-byte read probes, and what their absence means. */
class EngineKeepAliveTest extends EngineTestBase {

  private static final int INTERVAL_MS = 50;

  @Test
  void anIdleConnectionIsProbedWithAZeroByteReadWithoutRegions() {
    open(options().setKeepAliveMs(INTERVAL_MS));

    FakeLibrpma.Post probe = awaitProbe();

    assertEquals(OpKind.READ, probe.kind());
    assertEquals(0, probe.localMr());
    assertEquals(0, probe.remoteMr());
    assertEquals(1, onLoop(() -> engine.stats().keepAliveProbes()));
  }

  @Test
  void aConnectionWhoseProbesAreAnsweredStaysOpen() throws InterruptedException {
    open(options().setKeepAliveMs(INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    for (int i = 0; i < 3; i++) {
      FakeLibrpma.Post probe = awaitProbe();
      onLoop(() -> {
        conn.complete(probe);
        return null;
      });
      cqReady();
      waitUntil(() -> onLoop(() -> conn.posted.size() > 0 && conn.last() != probe));
    }

    assertTrue(closedWith.isEmpty(), closedWith.toString());
    assertTrue(onLoop(engine::isOpen));
  }

  @Test
  void anUnansweredProbeIsEndedByTheWatchdogWhoseReasonNamesTheProbe() {
    open(options().setKeepAliveMs(INTERVAL_MS).setCompletionTimeoutMs(4 * INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    awaitProbe();

    await(engine.whenClosed());

    waitUntil(() -> !closedWith.isEmpty());
    assertTrue(closedWith.get(0).getMessage().contains("keepalive probe of this idle connection"
        + " was not answered"), closedWith.get(0).getMessage());
  }

  @Test
  void aProbeIsNotDeclaredDeadBeforeTheCompletionTimeout() throws InterruptedException {
    open(options().setKeepAliveMs(INTERVAL_MS).setCompletionTimeoutMs(20 * INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    FakeLibrpma.Post probe = awaitProbe();
    Thread.sleep(5L * INTERVAL_MS); // a probe retransmitted after a brief cut takes this long

    onLoop(() -> {
      conn.complete(probe);
      return null;
    });
    cqReady();

    assertTrue(closedWith.isEmpty(), closedWith.toString());
    assertTrue(onLoop(engine::isOpen));
  }

  @Test
  void aFailedProbeClosesTheConnectionSayingSo() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    FakeLibrpma.Post probe = awaitProbe();

    onLoop(() -> {
      conn.fail(probe, 12); // IBV_WC_RETR_EXC_ERR: the peer's device never acknowledged
      return null;
    });
    cqReady();
    await(engine.whenClosed());

    waitUntil(() -> !closedWith.isEmpty());
    assertTrue(closedWith.get(0).getMessage().contains("a keepalive probe failed"),
        closedWith.get(0).getMessage());
  }

  @Test
  void aBusyConnectionIsNeverProbed() throws InterruptedException {
    // an operation every 10 ms against an interval of 200 ms: busy by a wide margin, so that a
    // stall of a loaded host (seen: over 50 ms) does not make it idle for a whole interval
    int interval = 200;
    open(options().setKeepAliveMs(interval));
    long until = System.nanoTime() + 6L * interval * 1_000_000;
    while (System.nanoTime() < until) {
      write();
      onLoop(() -> {
        conn.complete(conn.last());
        return null;
      });
      cqReady();
      Thread.sleep(10);
    }

    assertEquals(0, onLoop(() -> engine.stats().keepAliveProbes()));
    assertFalse(onLoop(() -> conn.posted.stream().anyMatch(p -> p.length() == 0)));
  }

  @Test
  void keepaliveOffSendsNoProbe() throws InterruptedException {
    open(options().setKeepAliveMs(0));
    Thread.sleep(4L * INTERVAL_MS);

    assertEquals(0, onLoop(() -> conn.posted.size()));
  }

  private FakeLibrpma.Post awaitProbe() {
    waitUntil(() -> onLoop(() -> !conn.posted.isEmpty() && conn.last().length() == 0
        && conn.last().kind() == OpKind.READ));
    return onLoop(conn::last);
  }

  private static void waitUntil(BooleanSupplier condition) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 5 s");
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
