package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.seam.OpKind;
import org.junit.jupiter.api.Test;

/** The statuses the hints key on are verbs.h's, and each hint names its cause. */
class StatusHintsTest {

  @Test
  void theStatusesAreVerbsValues() {
    Native.ensureLoaded();
    assertEquals(Native.constant("IBV_WC_LOC_LEN_ERR"), StatusHints.LOC_LEN_ERR);
    assertEquals(Native.constant("IBV_WC_LOC_QP_OP_ERR"), StatusHints.LOC_QP_OP_ERR);
    assertEquals(Native.constant("IBV_WC_REM_INV_REQ_ERR"), StatusHints.REM_INV_REQ_ERR);
    assertEquals(Native.constant("IBV_WC_REM_OP_ERR"), StatusHints.REM_OP_ERR);
  }

  @Test
  void aSendsRemoteOperationErrorPointsAtTheReceivesLength() {
    assertTrue(StatusHints.hint(OpKind.SEND, StatusHints.REM_OP_ERR)
        .contains("longer than the receive the peer posted"));
    assertTrue(StatusHints.hint(OpKind.SEND_WITH_IMM, StatusHints.REM_INV_REQ_ERR)
        .contains("longer than the receive the peer posted"));
  }

  @Test
  void aReceivesLengthErrorPointsAtTheMessagesLength() {
    assertTrue(StatusHints.hint(OpKind.RECV, StatusHints.LOC_LEN_ERR)
        .contains("longer than this receive's length"));
  }

  @Test
  void otherStatusesGetNoHint() {
    assertNull(StatusHints.hint(OpKind.WRITE, StatusHints.REM_OP_ERR));
    assertNull(StatusHints.hint(OpKind.SEND, 10));
  }

  @Test
  void theQueuePairsCloseReasonCarriesTheHint() {
    CloseReasons reasons = new CloseReasons("connection to 10.0.2.15:7599");
    String message = reasons.queuePairFailed(OpKind.SEND, StatusHints.REM_OP_ERR,
        "remote operation error", null).getMessage();
    assertTrue(message.contains("longer than the receive the peer posted"), message);
  }
}
