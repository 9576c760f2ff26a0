package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keepalive of an idle connection: zero-byte read probes, and what their absence means. In
 * virtual time: a probe is due exactly one interval after the last check that saw a completion.
 */
class EngineKeepAliveTest extends EngineTestBase {

  private static final int INTERVAL_MS = 50;

  @Test
  void anIdleConnectionIsProbedWithAZeroByteReadWithoutRegions() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    advanceMs(INTERVAL_MS);

    FakeLibrpma.Post probe = lastProbe();

    assertEquals(OpKind.READ, probe.kind());
    assertEquals(0, probe.localMr());
    assertEquals(0, probe.remoteMr());
    assertEquals(1, onLoop(() -> engine.stats().keepAliveProbes()));
  }

  @Test
  void anIdleConnectionIsProbedAfterExactlyItsIntervalNotBefore() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    advanceMs(INTERVAL_MS - 1);
    assertEquals(0, onLoop(() -> conn.posted.size()), "no probe before the interval");

    advanceMs(1);

    lastProbe();
    assertEquals(1, onLoop(() -> conn.posted.size()));
  }

  @Test
  void aConnectionWhoseProbesAreAnsweredStaysOpen() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    advanceMs(INTERVAL_MS);
    for (int i = 0; i < 3; i++) {
      FakeLibrpma.Post probe = lastProbe();
      conn.complete(probe);
      cqReady();
      // the answer is a completion: the interval after it is not idle, the one after that is
      advanceMs(2 * INTERVAL_MS);
      assertNotSame(probe, lastProbe(), "probed again");
    }

    assertTrue(closedWith.isEmpty(), closedWith.toString());
    assertTrue(onLoop(engine::isOpen));
    assertEquals(4, onLoop(() -> engine.stats().keepAliveProbes()));
  }

  @Test
  void anUnansweredProbeIsEndedByTheWatchdogWhoseReasonNamesTheProbe() {
    open(options().setKeepAliveMs(INTERVAL_MS).setCompletionTimeoutMs(4 * INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    advanceMs(INTERVAL_MS);
    lastProbe();

    advanceMs(4 * INTERVAL_MS); // the watchdog's two checks with the probe in flight

    await(engine.whenClosed());
    settle();
    assertEquals(1, closedWith.size(), closedWith.toString());
    assertTrue(closedWith.get(0).getMessage().contains("keepalive probe of this idle connection"
        + " was not answered"), closedWith.get(0).getMessage());
  }

  @Test
  void aProbeIsNotDeclaredDeadBeforeTheCompletionTimeout() {
    int completionTimeout = 20 * INTERVAL_MS;
    open(options().setKeepAliveMs(INTERVAL_MS).setCompletionTimeoutMs(completionTimeout));
    List<Throwable> closedWith = watchClose();
    advanceMs(INTERVAL_MS);
    FakeLibrpma.Post probe = lastProbe();
    // answered late (retransmitted after a brief cut), 1 ms before the watchdog would close
    advanceMs(completionTimeout - INTERVAL_MS - 1);
    settle();
    assertTrue(closedWith.isEmpty() && onLoop(engine::isOpen), "open until the timeout");

    conn.complete(probe);
    cqReady();
    advanceMs(INTERVAL_MS); // past the watchdog's check that would have closed it
    settle();

    assertTrue(closedWith.isEmpty(), closedWith.toString());
    assertTrue(onLoop(engine::isOpen));
  }

  @Test
  void aFailedProbeClosesTheConnectionSayingSo() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    List<Throwable> closedWith = watchClose();
    advanceMs(INTERVAL_MS);
    FakeLibrpma.Post probe = lastProbe();

    conn.fail(probe, 12); // IBV_WC_RETR_EXC_ERR: the peer's device never acknowledged
    cqReady();
    await(engine.whenClosed());
    settle();

    assertEquals(1, closedWith.size(), closedWith.toString());
    assertTrue(closedWith.get(0).getMessage().contains("a keepalive probe failed"),
        closedWith.get(0).getMessage());
  }

  @Test
  void aBusyConnectionIsNeverProbed() {
    open(options().setKeepAliveMs(INTERVAL_MS));
    for (int ms = 0; ms < 6 * INTERVAL_MS; ms += INTERVAL_MS / 2) { // two completions per interval
      Future<Void> w = write();
      conn.complete(conn.last());
      cqReady();
      await(w);
      advanceMs(INTERVAL_MS / 2);
    }

    assertEquals(0, onLoop(() -> engine.stats().keepAliveProbes()));
    assertFalse(onLoop(() -> conn.posted.stream().anyMatch(p -> p.length() == 0)));
    assertEquals(12, onLoop(() -> conn.posted.size()), "only the writes");
  }

  @Test
  void keepaliveOffSendsNoProbe() {
    open(options().setKeepAliveMs(0));
    advanceMs(100L * INTERVAL_MS);

    assertEquals(0, onLoop(() -> conn.posted.size()));
    assertEquals(0, onLoop(clock::pendingTimers), "no keepalive timer at all");
  }

  /** The last operation posted, which must be a probe: a zero-byte read. */
  private FakeLibrpma.Post lastProbe() {
    FakeLibrpma.Post last = onLoop(() -> conn.posted.isEmpty() ? null : conn.last());
    assertTrue(last != null && last.length() == 0 && last.kind() == OpKind.READ,
        "the last post is a probe: " + last);
    return last;
  }
}
