package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;
import dev.rpma.vertx.RpmaConnectionClosedException;
import org.junit.jupiter.api.Test;

/** Each way a connection ends carries its type; its message stays what users read. */
class CloseReasonTypeTest {

  private final CloseReasons reasons = new CloseReasons("connection to 10.0.2.15:7000");

  @Test
  void aCloseOfItsOwnIsClosedLocally() {
    assertEquals(CloseReason.CLOSED_LOCALLY, ConnectionEndedException.of(reasons.closedByUser(null)));
  }

  @Test
  void thePeersDisconnectIsClosedByThePeerWithItsMessageUnchanged() {
    RpmaConnectionClosedException end = reasons.ended(CmEvent.CLOSED);
    assertEquals(CloseReason.CLOSED_BY_PEER, ConnectionEndedException.of(end));
    assertEquals("connection to 10.0.2.15:7000 was closed by the peer", end.getMessage());
  }

  @Test
  void eachConnectionEventEndsWithItsOwnType() {
    assertEquals(CloseReason.LOST, ConnectionEndedException.of(reasons.ended(CmEvent.LOST)));
    assertEquals(CloseReason.REJECTED_BY_PEER,
        ConnectionEndedException.of(reasons.ended(CmEvent.REJECTED)));
    assertEquals(CloseReason.UNREACHABLE,
        ConnectionEndedException.of(reasons.ended(CmEvent.UNREACHABLE)));
    assertEquals(CloseReason.OTHER_EVENT,
        ConnectionEndedException.of(reasons.ended(CmEvent.UNDEFINED)));
  }

  @Test
  void anUnansweredProbeIsKeepAliveAndAStallIsTheWatchdog() {
    assertEquals(CloseReason.KEEPALIVE,
        ConnectionEndedException.of(reasons.stalled(1000, 1, 0, true)));
    assertEquals(CloseReason.WATCHDOG,
        ConnectionEndedException.of(reasons.stalled(1000, 3, 1, false)));
    assertEquals(CloseReason.KEEPALIVE, ConnectionEndedException.of(
        reasons.keepAliveFailed(new IllegalStateException("probe failed"))));
  }

  @Test
  void anErrorCompletionIsAQueuePairError() {
    assertEquals(CloseReason.QUEUE_PAIR_ERROR, ConnectionEndedException.of(
        reasons.queuePairFailed(OpKind.WRITE, 10, "remote access error", null)));
  }

  @Test
  void failuresOfTheLoopsPathsAndOfTheSetUpHaveTheirTypes() {
    IllegalStateException cause = new IllegalStateException("x");
    assertEquals(CloseReason.FAILED_ON_LOOP,
        ConnectionEndedException.of(reasons.failedOnLoop(cause)));
    assertEquals(CloseReason.SET_UP_FAILED,
        ConnectionEndedException.of(reasons.setUpFailed(cause)));
    assertEquals(CloseReason.SET_UP_FAILED,
        ConnectionEndedException.of(reasons.cannotWatch(cause)));
    assertEquals(CloseReason.EVENTS_FAILED,
        ConnectionEndedException.of(reasons.eventsFailed(cause)));
    assertEquals(CloseReason.EVENTS_FAILED,
        ConnectionEndedException.of(reasons.completionQueueFailed(cause)));
    assertEquals(CloseReason.NOT_ESTABLISHED,
        ConnectionEndedException.of(reasons.notEstablished(100)));
  }

  @Test
  void anExceptionThatIsNoConnectionsEndHasNoType() {
    assertNull(ConnectionEndedException.of(new RpmaConnectionClosedException("x")));
    assertNull(ConnectionEndedException.of(null));
  }
}
