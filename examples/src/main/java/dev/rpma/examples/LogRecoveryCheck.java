package dev.rpma.examples;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The power-loss checker, run on the log server's host after it was powered off and booted
 * again: reads the log and the client's list of acknowledged records ({@link AckLog}) and
 * prints the verdict of {@link LogRecoveryVerdict}: a pass only if every acknowledged record
 * is there, intact, in its place. Exit code 0 on a pass. A log on device-DAX
 * ({@code --file=/dev/dax0.0}, persistent memory) is read through the library's mapping of it,
 * as the server registered it (the device has no read(2)), on {@code --address}.
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
    LogRecoveryVerdict verdict = LogRecoveryVerdict.of(log, settings, acked);
    verdict.print(System.out);
    System.exit(verdict.passed() ? 0 : 1);
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
