package dev.rpma.examples;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RangePersister;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The power-loss run's controls: the log server with a persister that is known to be wrong, to
 * show that the checker catches what it must (scripts/power-loss.sh with
 * RPMA_POWER_LOSS_CONTROL). Never a way to run a log.
 * <ul>
 *   <li>{@code none}: acknowledges without persisting anything;
 *   <li>{@code msync-only}: msync of the range without first dirtying its pages, which an RDMA
 *       write does not do: a page written back once stays clean.
 * </ul>
 */
public final class PowerLossControlServer {

  private PowerLossControlServer() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    Settings parsed = Settings.parse(args);
    LogSettings settings = LogSettings.from(parsed);
    String control = parsed.string("persister", "none");
    Function<MemoryRegion, RangePersister> persister = switch (control) {
      case "none" -> region -> (offset, length) -> { };
      case "msync-only" -> region -> msyncOnly(settings);
      default -> throw new IllegalArgumentException("--persister: none or msync-only");
    };
    Vertx vertx = NativeVertx.create();
    vertx.deployVerticle(new LogServerVerticle(settings, persister))
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    System.out.println("LISTENING");
    System.out.println("control server: persister " + control);
    Thread.sleep(TimeUnit.SECONDS.toMillis(settings.timeoutSeconds()));
    System.exit(1);
  }

  /**
   * msync through a second mapping of the same file (one page cache: the same pages the region's
   * mapping holds), with no page dirtied first.
   */
  private static RangePersister msyncOnly(LogSettings settings) {
    MappedByteBuffer mapping;
    try (FileChannel channel = FileChannel.open(settings.file(), StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, settings.fileSize());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return (offset, length) -> mapping.force(Math.toIntExact(offset), Math.toIntExact(length));
  }
}
