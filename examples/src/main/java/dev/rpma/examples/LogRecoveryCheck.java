package dev.rpma.examples;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The power-loss checker, run on the log server's host after it was powered off and booted
 * again: recovers the log from its file (every slot whose record is intact: header, sequence
 * number of its slot, CRC32) and holds it to the client's list of acknowledged records
 * ({@link AckLog}). Passes only if every acknowledged record is there, intact, in its place.
 * Records found intact but never acknowledged are reported, not claimed: they were written
 * (an append in flight) and may or may not have survived. Exit code 0 on a pass. A log on
 * device-DAX ({@code --file=/dev/dax0.0}, persistent memory) is read through the library's
 * mapping of it, as the server registered it (the device has no read(2)), on {@code --address}.
 *
 * <pre>
 *   LogRecoveryCheck --file=LOG --records=N --record-size=S --acked=FILE
 * </pre>
 */
public final class LogRecoveryCheck {

  private LogRecoveryCheck() {
  }

  public static void main(String[] args) throws Exception {
    Settings parsed = Settings.parse(args);
    LogSettings settings = LogSettings.from(parsed);
    List<Long> acked = AckLog.read(Path.of(parsed.string("acked", "acked.txt")));
    ByteBuffer log = LogSettings.isDeviceDax(settings.file()) ? readDeviceDax(settings)
        : readAll(settings.file());
    int size = settings.recordSize();
    long slots = Math.min(settings.records(), log.capacity() / size);
    BitSet intact = new BitSet();
    for (long seq = 0; seq < slots; seq++) {
      if (LogRecordFormat.check(log, (int) settings.offsetOf(seq), seq, size) == null) {
        intact.set((int) seq);
      }
    }
    BitSet acknowledged = new BitSet();
    List<String> lost = new ArrayList<>();
    for (long seq : acked) {
      acknowledged.set((int) seq);
      if (!intact.get((int) seq)) {
        lost.add(seq + ": " + (seq >= slots ? "beyond the file"
            : LogRecordFormat.check(log, (int) settings.offsetOf(seq), seq, size)));
      }
    }
    BitSet unacknowledged = (BitSet) intact.clone();
    unacknowledged.andNot(acknowledged);
    int prefix = intact.nextClearBit(0);
    boolean passed = lost.isEmpty() && !acked.isEmpty();
    System.out.println("power-loss check: " + (passed ? "PASSED" : "FAILED"));
    System.out.printf("  acknowledged       %d records (highest %d)%n", acked.size(),
        acknowledged.length() - 1);
    System.out.printf("  recovered          %d intact records, %d of them in an unbroken"
        + " prefix from 0%n", intact.cardinality(), prefix);
    System.out.printf("  lost               %d acknowledged records not intact%n", lost.size());
    System.out.printf("  not acknowledged   %d intact records the client was never told of"
        + " (in flight at the power loss: not claimed)%n", unacknowledged.cardinality());
    lost.stream().limit(10).forEach(l -> System.out.println("    lost " + l));
    if (acked.isEmpty()) {
      System.out.println("  nothing was acknowledged: the run proves nothing");
    }
    System.exit(passed ? 0 : 1);
  }

  /** The log's range of persistent memory, copied out through a registration of the device. */
  private static ByteBuffer readDeviceDax(LogSettings settings) throws Exception {
    int size = Math.toIntExact(settings.fileSize());
    Vertx vertx = NativeVertx.create();
    try {
      return RpmaPeer.open(vertx, settings.address())
          .compose(peer -> peer.register(settings.file(), 0, size, Set.of(MemoryUsage.READ_SRC))
              .map(region -> {
                // copied before the peer closes, which closes the region
                return ByteBuffer.allocate(size).put(region.window(0, size)).flip();
              })
              .eventually(peer::close))
          .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static ByteBuffer readAll(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(channel.size()));
      while (all.hasRemaining() && channel.read(all) >= 0) {
        // until the end
      }
      return all.flip();
    }
  }
}
