package dev.rpma.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The power-loss checker's verdict, on the log's bytes in memory: every slot whose record is
 * intact (header, the sequence number of its slot, CRC32) is recovered, and the verdict passes
 * only if every acknowledged record is among them and at least one record was acknowledged (a
 * run that acknowledged nothing proves nothing). Records intact but never acknowledged were in
 * flight: counted, not claimed. {@link LogRecoveryCheck} reads the log and the list and prints
 * this.
 *
 * @param acknowledged the records the client was told are durable
 * @param highestAcknowledged the highest of them, -1 if none
 * @param intact the records recovered intact
 * @param prefix how many of them lie in an unbroken run from record 0
 * @param unacknowledged intact records the client was never told of
 * @param lost each acknowledged record not intact, with what is wrong with it
 */
public record LogRecoveryVerdict(int acknowledged, long highestAcknowledged, int intact,
    int prefix, int unacknowledged, List<String> lost) {

  /** Holds {@code log} (the whole log, from offset 0) to the acknowledged records. */
  public static LogRecoveryVerdict of(ByteBuffer log, LogSettings settings, List<Long> acked) {
    int size = settings.recordSize();
    long slots = Math.max(0, Math.min(settings.records(),
        (log.capacity() - settings.offsetOf(0)) / size));
    BitSet intact = new BitSet();
    for (long seq = 0; seq < slots; seq++) {
      if (LogRecordFormat.check(log, (int) settings.offsetOf(seq), seq, size) == null) {
        intact.set((int) seq);
      }
    }
    BitSet acknowledged = new BitSet();
    List<String> lost = new ArrayList<>();
    for (long seq : acked) {
      if (seq < 0 || seq >= slots) {
        lost.add(seq + ": beyond the log");
        continue;
      }
      acknowledged.set((int) seq);
      if (!intact.get((int) seq)) {
        lost.add(seq + ": " + LogRecordFormat.check(log, (int) settings.offsetOf(seq), seq, size));
      }
    }
    BitSet unacknowledged = (BitSet) intact.clone();
    unacknowledged.andNot(acknowledged);
    long highest = acked.stream().mapToLong(Long::longValue).max().orElse(-1);
    return new LogRecoveryVerdict(acked.size(), highest, intact.cardinality(),
        intact.nextClearBit(0), unacknowledged.cardinality(), List.copyOf(lost));
  }

  public boolean passed() {
    return lost.isEmpty() && acknowledged > 0;
  }

  /** The report the power-loss and nemesis runs keep (their summaries grep its lines). */
  public void print(PrintStream out) {
    out.println("power-loss check: " + (passed() ? "PASSED" : "FAILED"));
    out.printf("  acknowledged       %d records (highest %d)%n", acknowledged,
        highestAcknowledged);
    out.printf("  recovered          %d intact records, %d of them in an unbroken"
        + " prefix from 0%n", intact, prefix);
    out.printf("  lost               %d acknowledged records not intact%n", lost.size());
    out.printf("  not acknowledged   %d intact records the client was never told of"
        + " (in flight at the power loss: not claimed)%n", unacknowledged);
    lost.stream().limit(10).forEach(l -> out.println("    lost " + l));
    if (acknowledged == 0) {
      out.println("  nothing was acknowledged: the run proves nothing");
    }
  }
}
