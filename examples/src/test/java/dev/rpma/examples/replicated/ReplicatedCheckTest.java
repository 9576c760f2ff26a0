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
  private static final ServerAddress C = new ServerAddress("10.9.0.3", 7501);

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

  /** The verdict at quorum 2 with nothing away and no server that must hold all. */
  private static boolean judge(BitSet acked, LogImage... images) {
    return ReplicatedCheck.judge(acked, List.of(images), 2, List.of(), List.of());
  }

  @Test
  void aRecordAcknowledgedAtQuorumTwoOnOneServerOnlyFails() {
    LogImage a = LogImage.of(A, log(0, 1, 2), LOG);
    LogImage b = LogImage.of(B, log(0, 1), LOG);
    LogImage c = LogImage.of(C, log(0, 1), LOG);
    assertFalse(judge(acked(0, 1, 2), a, b, c));
  }

  @Test
  void everyRecordOnTwoServersPassesThoughNoServerHoldsAll() {
    LogImage a = LogImage.of(A, log(0, 1, 2), LOG);
    LogImage b = LogImage.of(B, log(1, 2, 3), LOG);
    LogImage c = LogImage.of(C, log(0, 3), LOG);
    assertTrue(judge(acked(0, 1, 2, 3), a, b, c));
  }

  @Test
  void theQuorumTheRecordsWereAcknowledgedAtDecides() {
    List<LogImage> images = List.of(LogImage.of(A, log(0, 1), LOG), LogImage.of(B, log(0), LOG));
    assertTrue(ReplicatedCheck.judge(acked(0, 1), images, 1, List.of(), List.of()));
    assertFalse(ReplicatedCheck.judge(acked(0, 1), images, 2, List.of(), List.of()));
  }

  @Test
  void aRecordAcknowledgedWhileOneServerWasAwayIsRequiredOnBothOthers() {
    // C was away for records 2 and 3 and copied them from A on its return
    List<Absence> away = List.of(new Absence(C, 2, 4));
    LogImage a = LogImage.of(A, log(0, 1, 2, 3), LOG);
    LogImage b = LogImage.of(B, log(0, 1, 2), LOG);
    LogImage c = LogImage.of(C, log(0, 1, 2, 3), LOG);
    assertFalse(ReplicatedCheck.judge(acked(0, 1, 2, 3), List.of(a, b, c), 2, List.of(), away));
    LogImage bWhole = LogImage.of(B, log(0, 1, 2, 3), LOG);
    assertTrue(ReplicatedCheck.judge(acked(0, 1, 2, 3), List.of(a, bWhole, c), 2, List.of(),
        away));
  }

  @Test
  void aServerAwayCountsForTheRecordsAcknowledgedOutsideItsAbsence() {
    List<Absence> away = List.of(new Absence(C, 2, 4));
    LogImage a = LogImage.of(A, log(0, 1, 2, 3), LOG);
    LogImage b = LogImage.of(B, log(2, 3), LOG);
    LogImage c = LogImage.of(C, log(0, 1, 2, 3), LOG);
    assertTrue(ReplicatedCheck.judge(acked(0, 1, 2, 3), List.of(a, b, c), 2, List.of(), away));
  }

  @Test
  void anAcknowledgedRecordOnNoServerFails() {
    LogImage a = LogImage.of(A, log(0, 1), LOG);
    LogImage b = LogImage.of(B, log(0, 1), LOG);
    assertFalse(judge(acked(0, 1, 2), a, b));
  }

  @Test
  void aServerThatMustBeCompleteFailsWhenItMissesAnAcknowledgedRecord() {
    LogImage a = LogImage.of(A, log(0, 1, 2), LOG);
    LogImage b = LogImage.of(B, log(0, 1), LOG);
    LogImage c = LogImage.of(C, log(2), LOG);
    List<LogImage> images = List.of(a, b, c);
    assertFalse(ReplicatedCheck.judge(acked(0, 1, 2), images, 2, List.of(B), List.of()));
    assertTrue(ReplicatedCheck.judge(acked(0, 1, 2), images, 2, List.of(A), List.of()));
  }

  @Test
  void aFencedWritersRecordInAnySlotFails() {
    ByteBuffer bytes = log(0, 1);
    LogRecordFormat.encode(bytes, (int) LOG.offsetOf(5), 5 | LogImage.FENCED_MARK, SIZE);
    LogImage a = LogImage.of(A, bytes, LOG);
    LogImage b = LogImage.of(B, log(0, 1), LOG);
    assertEquals(1, a.fenced().cardinality());
    assertFalse(a.intact().get(5));
    assertFalse(judge(acked(0, 1), a, b));
    assertTrue(judge(acked(0, 1), LogImage.of(A, log(0, 1), LOG), b));
  }

  @Test
  void nothingAcknowledgedProvesNothingAndFails() {
    assertFalse(judge(new BitSet(), LogImage.of(A, log(0), LOG), LogImage.of(B, log(0), LOG)));
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
  void anAbsenceIsAServerAndTheRecordsAcknowledgedWithoutIt() {
    Absence away = Absence.parse("10.9.0.3@150-480", 7501);
    assertEquals(new Absence(C, 150, 480), away);
    assertTrue(away.covers(C, 150));
    assertFalse(away.covers(C, 480));
    assertFalse(away.covers(A, 200));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Absence.parse("10.9.0.3:7501", 7501));
    assertTrue(e.getMessage().contains("IP[:PORT]@FROM-TO"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Absence.parse("10.9.0.3@9-2", 7501));
  }

  @Test
  void serversAreHostOrHostAndPort() {
    assertEquals(List.of(A, new ServerAddress("10.9.0.2", 7502)),
        ServerAddress.parseList("10.9.0.1, 10.9.0.2:7502", 7501));
    assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("h:x", 1));
  }
}
