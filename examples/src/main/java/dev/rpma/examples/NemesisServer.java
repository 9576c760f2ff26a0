package dev.rpma.examples;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.PersistService;
import dev.rpma.vertx.RangePersister;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The log server of the nemesis run (scripts/nemesis.sh): one log per client, each a file in
 * {@code --dir} ({@code log-K.dat}) served on port {@code --port + K}, made durable by the
 * server persisting each range on the client's request (msync of the library's mapping:
 * {@link RangePersister#of(MemoryRegion)}). Unlike the log example's server it is built to be
 * killed and started again: it never empties a log that is there (a restart after a process
 * kill or a power loss serves what the file holds), and a client that connects again replaces
 * its earlier connection, which the nemesis may have left half-open on this side. It runs
 * until it is killed; the verdict is the checker's ({@link LogRecoveryCheck} per log).
 * {@code --control=unpersisted} is the durability check's control: the server acknowledges each
 * persist request without persisting anything, which the check after a power loss must fail.
 *
 * <pre>
 *   NemesisServer --address=IP --dir=DIR --clients=C --port=P --records=N --record-size=S
 *       [--control=unpersisted]
 * </pre>
 */
public final class NemesisServer {

  private NemesisServer() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    Settings parsed = Settings.parse(args);
    LogSettings settings = LogSettings.from(parsed);
    Path dir = Path.of(parsed.string("dir", "/tmp/nemesis"));
    int clients = parsed.integer("clients", 2, 1, 16);
    boolean unpersisted = switch (parsed.string("control", "none")) {
      case "none" -> false;
      case "unpersisted" -> true;
      default -> throw new IllegalArgumentException("--control: none or unpersisted");
    };
    if (unpersisted) {
      System.out.println("nemesis server: CONTROL (--control=unpersisted): persist requests"
          + " acknowledged, nothing persisted: the durability check must fail");
    }
    Files.createDirectories(dir);
    Vertx vertx = NativeVertx.create();
    RpmaPeer peer = RpmaPeer.open(vertx, settings.address()).toCompletionStage()
        .toCompletableFuture().get();
    List<Future<?>> listening = new ArrayList<>();
    for (int k = 0; k < clients; k++) {
      Path file = logFile(dir, k);
      openKeeping(file, settings.fileSize());
      listening.add(serve(peer, settings, file, settings.port() + k, unpersisted));
    }
    Future.all(listening).toCompletionStage().toCompletableFuture().get();
    System.out.println("LISTENING");
    System.out.flush();
  }

  /** Client K's log. */
  static Path logFile(Path dir, int client) {
    return dir.resolve("log-" + client + ".dat");
  }

  /** Creates the log at its full length, or keeps what is there: never empties it. */
  private static void openKeeping(Path file, long size) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (channel.size() < size) {
        channel.write(ByteBuffer.allocate(1), size - 1);
      }
    }
  }

  private static Future<?> serve(RpmaPeer peer, LogSettings settings, Path file, int port,
      boolean unpersisted) {
    return peer.register(file, 0, settings.fileSize(), LogServerVerticle.LOG_USAGES)
        .compose(region -> {
          byte[] offer = RegionOffer.of(PeerConfig.create(region.persistentMemory()), region)
              .toBytes();
          RangePersister persister = unpersisted ? (offset, length) -> { }
              : RangePersister.of(region);
          Writer writer = new Writer(peer, offer, region, persister,
              file.getFileName().toString());
          return peer.listen(port, settings.address(),
              LogServerVerticle.connectionOptions(settings), writer::accept);
        });
  }

  /** The one client of a log: the newest connection wins, an earlier one is closed. */
  private static final class Writer {
    private final RpmaPeer peer;
    private final byte[] offer;
    private final MemoryRegion region;
    private final RangePersister persister;
    private final String name;
    private RpmaConnection current;

    Writer(RpmaPeer peer, byte[] offer, MemoryRegion region, RangePersister persister,
        String name) {
      this.peer = peer;
      this.offer = offer;
      this.region = region;
      this.persister = persister;
      this.name = name;
    }

    void accept(RpmaConnectionRequest request) {
      PersistService.accept(peer, request, offer, region, persister)
          .onSuccess(connection -> {
            RpmaConnection earlier = current;
            current = connection;
            if (earlier != null) {
              // its client came back on a new connection: the old one is dead on its side
              earlier.close();
            }
            System.out.println("nemesis server: a client connected to " + name
                + (earlier != null ? " (its earlier connection closed)" : ""));
          })
          .onFailure(e -> System.out.println("nemesis server: accepting failed: "
              + Steps.describe(e)));
    }
  }
}
