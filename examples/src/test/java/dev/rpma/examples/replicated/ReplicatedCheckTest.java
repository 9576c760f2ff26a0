package dev.rpma.examples.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.examples.LogRecordFormat;
import dev.rpma.examples.LogSettings;
import dev.rpma.examples.Settings;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker's verdicts on logs built here, and the connect hello's encoding. */
class ReplicatedCheckTest {

  private static final int RECORDS = 8;
  private static final int SIZE = 64;
  private static final LogSettings LOG = LogSettings.from(Settings.parse(new String[] {
      "--records=" + RECORDS, "--record-size=" + SIZE, "--address=127.0.0.1"}));
  private static final ServerAddress A = new ServerAddress("10.9.0.1", 7501);
  private static final ServerAddress B = new ServerAddress("10.9.0.2", 7501);

  /** A log holding the given records, intact, in their slots. */
  private static ByteBuffer log(long... sequences) {
    ByteBuffer bytes = ByteBuffer.allocate(RECORDS * SIZE);
    for (long seq : sequences) {
      LogRecordFormat.encode(bytes, (int) LOG.offsetOf(seq), seq, SIZE);
    }
    return bytes;
  }

  private static BitSet acked(int... sequences) {
    BitSet set = new BitSet();
    for (int seq : sequences) {
      set.set(seq);
    }
    return set;
  }

  @Test
  void everyAcknowledgedRecordOnSomeServerPassesThoughNoServerHoldsAll() {
    LogImage a = LogImage.of(A, log(0, 1, 2), LOG);
    LogImage b = LogImage.of(B, log(1, 2, 3), LOG);
    assertTrue(ReplicatedCheck.judge(acked(0, 1, 2, 3), List.of(a, b), List.of()));
  }

  @Test
  void anAcknowledgedRecordOnNoServerFails() {
    LogImage a = LogImage.of(A, log(0, 1), LOG);
    assertFalse(ReplicatedCheck.judge(acked(0, 1, 2), List.of(a), List.of()));
  }

  @Test
  void aServerThatMustBeCompleteFailsWhenItMissesAnAcknowledgedRecord() {
    LogImage a = LogImage.of(A, log(0, 1, 2), LOG);
    LogImage b = LogImage.of(B, log(0, 1), LOG);
    assertFalse(ReplicatedCheck.judge(acked(0, 1, 2), List.of(a, b), List.of(B)));
    assertTrue(ReplicatedCheck.judge(acked(0, 1, 2), List.of(a, b), List.of(A)));
  }

  @Test
  void aFencedWritersRecordInAnySlotFails() {
    ByteBuffer bytes = log(0, 1);
    LogRecordFormat.encode(bytes, (int) LOG.offsetOf(5), 5 | LogImage.FENCED_MARK, SIZE);
    LogImage a = LogImage.of(A, bytes, LOG);
    assertEquals(1, a.fenced().cardinality());
    assertFalse(a.intact().get(5));
    assertFalse(ReplicatedCheck.judge(acked(0, 1), List.of(a), List.of()));
  }

  @Test
  void nothingAcknowledgedProvesNothingAndFails() {
    assertFalse(ReplicatedCheck.judge(new BitSet(), List.of(LogImage.of(A, log(0), LOG)),
        List.of()));
  }

  @Test
  void theTailIsPastTheHighestIntactRecord() {
    assertEquals(4, LogImage.of(A, log(0, 1, 3), LOG).tail());
    assertEquals(0, LogImage.of(A, log(), LOG).tail());
  }

  @Test
  void aHelloSaysWriterAndEpochOrReader() {
    ReplicaHello writer = ReplicaHello.fromBytes(ReplicaHello.writer(7).toBytes());
    assertTrue(writer.writer());
    assertEquals(7, writer.epoch());
    assertFalse(ReplicaHello.fromBytes(ReplicaHello.reader().toBytes()).writer());
  }

  @Test
  void aConnectWithoutTheHelloIsNotAReplicatedLogClient() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReplicaHello.fromBytes(new byte[56]));
    assertTrue(e.getMessage().contains("RPLC"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ReplicaHello.writer(0));
  }

  @Test
  void serversAreHostOrHostAndPort() {
    assertEquals(List.of(A, new ServerAddress("10.9.0.2", 7502)),
        ServerAddress.parseList("10.9.0.1, 10.9.0.2:7502", 7501));
    assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("h:x", 1));
  }
}
