package dev.rpma.vertx.impl.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The persist request and reply read back as written, and nothing else passes for them. */
class PersistWireTest {

  @Test
  void aRequestReadsBackAsWritten() {
    ByteBuffer b = ByteBuffer.allocate(64);
    PersistWire.putRequest(b, 8, 5, 1L << 40, 4096);
    assertTrue(PersistWire.isRequest(b, 8, PersistWire.REQUEST_BYTES));
    assertEquals(5, PersistWire.slot(b, 8));
    assertEquals(1L << 40, PersistWire.offset(b, 8));
    assertEquals(4096, PersistWire.length(b, 8));
  }

  @Test
  void aReplyReadsBackAsWritten() {
    ByteBuffer b = ByteBuffer.allocate(32);
    PersistWire.putReply(b, 16, 15, PersistWire.PERSIST_FAILED);
    assertTrue(PersistWire.isReply(b, 16, PersistWire.REPLY_BYTES));
    assertEquals(15, PersistWire.slot(b, 16));
    assertEquals(PersistWire.PERSIST_FAILED, PersistWire.status(b, 16));
  }

  @Test
  void aMessageOfAnotherLengthOrMagicIsNeither() {
    ByteBuffer b = ByteBuffer.allocate(32);
    PersistWire.putRequest(b, 0, 1, 0, 1);
    assertFalse(PersistWire.isRequest(b, 0, PersistWire.REQUEST_BYTES - 1));
    assertFalse(PersistWire.isReply(b, 0, PersistWire.REPLY_BYTES));
    assertFalse(PersistWire.isRequest(ByteBuffer.allocate(32), 0, PersistWire.REQUEST_BYTES));
  }

  @Test
  void everyFailureStatusSaysWhatItMeans() {
    assertTrue(PersistWire.describe(PersistWire.OUT_OF_RANGE).contains("does not lie"));
    assertTrue(PersistWire.describe(PersistWire.PERSIST_FAILED).contains("could not persist"));
    assertTrue(PersistWire.describe(99).contains("unknown status 99"));
  }
}
