package dev.rpma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The power-loss checker's verdict on logs built in memory, each broken one way. */
class LogRecoveryVerdictTest {

  private static final int RECORDS = 32;
  private static final int SIZE = 64;
  private static final LogSettings SETTINGS = LogSettings.from(Settings.parse(new String[] {
      "--address=127.0.0.1", "--records=" + RECORDS, "--record-size=" + SIZE}));
  private static final List<Long> FIRST_20 = LongStream.range(0, 20).boxed().toList();

  /** Records 0 to {@code written - 1}, each in its own slot; the rest never written. */
  private static ByteBuffer logWith(int written) {
    ByteBuffer log = ByteBuffer.allocate(RECORDS * SIZE);
    for (int seq = 0; seq < written; seq++) {
      LogRecordFormat.encode(log, seq * SIZE, seq, SIZE);
    }
    return log;
  }

  @Test
  void anIntactLogHoldingEveryAcknowledgedRecordPasses() {
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(logWith(20), SETTINGS, FIRST_20);
    assertTrue(verdict.passed());
    assertEquals(20, verdict.intact());
    assertEquals(List.of(), verdict.lost());
  }

  @Test
  void recordsIntactButNeverAcknowledgedAreCountedNotClaimedAndDoNotFailIt() {
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(logWith(23), SETTINGS, FIRST_20);
    assertTrue(verdict.passed());
    assertEquals(3, verdict.unacknowledged());
  }

  @Test
  void anAcknowledgedRecordMissingFromTheLogFailsIt() {
    ByteBuffer log = logWith(20);
    log.put(7 * SIZE, new byte[SIZE]);
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(log, SETTINGS, FIRST_20);
    assertFalse(verdict.passed());
    assertEquals(List.of("7: never written (the header is all zeros)"), verdict.lost());
  }

  @Test
  void anAcknowledgedRecordTornFailsIt() {
    ByteBuffer log = logWith(20);
    // the second half of record 11 never landed: the old (zero) bytes remain
    log.put(11 * SIZE + SIZE / 2, new byte[SIZE / 2]);
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(log, SETTINGS, FIRST_20);
    assertFalse(verdict.passed());
    assertEquals(1, verdict.lost().size());
    assertTrue(verdict.lost().get(0).startsWith("11: CRC32 mismatch"), verdict.lost().get(0));
  }

  @Test
  void anAcknowledgedRecordWhoseSlotHoldsADuplicateOfAnotherFailsIt() {
    ByteBuffer log = logWith(20);
    log.put(5 * SIZE, log.slice(4 * SIZE, SIZE), 0, SIZE);
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(log, SETTINGS, FIRST_20);
    assertFalse(verdict.passed());
    assertEquals(List.of("5: holds sequence number 4 instead"), verdict.lost());
  }

  @Test
  void anAcknowledgedRecordBeyondTheLogFailsIt() {
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(logWith(RECORDS), SETTINGS,
        List.of(3L, (long) RECORDS));
    assertFalse(verdict.passed());
    assertEquals(List.of(RECORDS + ": beyond the log"), verdict.lost());
  }

  @Test
  void nothingAcknowledgedFailsEvenAnIntactLog() {
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(logWith(20), SETTINGS, List.of());
    assertFalse(verdict.passed());
    assertEquals(-1, verdict.highestAcknowledged());
  }
}
