package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.ConnectionHooks;
import dev.rpma.vertx.impl.seam.CmEvent;
import org.junit.jupiter.api.Test;

/**
 * The message channel tells an orderly end from an error by the close reason
 * (ConnectionHooks.closedByPeer): the peer's disconnect is an end, anything else an error.
 */
class PeerCloseReasonTest {

  private final CloseReasons reasons = new CloseReasons("connection to 10.0.2.15:7000");

  @Test
  void thePeersDisconnectIsAnOrderlyEnd() {
    assertTrue(ConnectionHooks.closedByPeer(reasons.ended(CmEvent.CLOSED)));
  }

  @Test
  void aLostConnectionIsNotAnOrderlyEnd() {
    assertFalse(ConnectionHooks.closedByPeer(reasons.ended(CmEvent.LOST)));
  }

  @Test
  void aStalledConnectionIsNotAnOrderlyEnd() {
    assertFalse(ConnectionHooks.closedByPeer(reasons.stalled(1000, 3, 1, false)));
  }

  @Test
  void aFailedCompletionQueueIsNotAnOrderlyEnd() {
    assertFalse(ConnectionHooks.closedByPeer(
        reasons.completionQueueFailed(new IllegalStateException("x"))));
  }

  @Test
  void aMessageThatOnlyReadsLikeThePeersCloseIsNotTakenForIt() {
    assertFalse(ConnectionHooks.closedByPeer(
        new RpmaConnectionClosedException("connection to 10.0.2.15:7000 was closed by the peer")));
  }
}
