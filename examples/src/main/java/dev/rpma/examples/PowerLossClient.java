package dev.rpma.examples;

import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client of the power-loss run (scripts/power-loss.sh): appends to a log server on another
 * host as the log example's client does (a write, then the library's durable acknowledgement),
 * and lists every record acknowledged as durable in {@code --acked=FILE} as the acknowledgement
 * comes. The server's host is powered off meanwhile: the run ends with the first failed append
 * (or SIGTERM), the list is closed, and the checker on the rebooted server holds the recovered
 * log to it. Exit code 0 once the list is complete (the verdict is the checker's); 1 if the
 * client never got going.
 *
 * <pre>
 *   PowerLossClient --server=IP --address=IP --records=N --window=W --acked=FILE
 * </pre>
 */
public final class PowerLossClient {

  private static final int COMPLETION_TIMEOUT_MS = 5000;

  private PowerLossClient() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    Settings parsed = Settings.parse(args);
    LogSettings settings = LogSettings.from(parsed);
    AckLog acked = new AckLog(Path.of(parsed.string("acked", "acked.txt")));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(acked)));
    Vertx vertx = NativeVertx.create();
    int rc;
    try {
      rc = run(vertx, settings, acked);
    } finally {
      closeQuietly(acked);
    }
    System.out.println("power-loss client: " + acked.count() + " records acknowledged as durable");
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    System.exit(rc);
  }

  private static int run(Vertx vertx, LogSettings settings, AckLog acked) throws Exception {
    CompletableFuture<String> ended = new CompletableFuture<>();
    Future<RpmaConnection> connected = RpmaPeer.open(vertx, settings.address())
        .compose(peer -> peer.register(ByteBuffer.allocateDirect(
                LogAppender.slotBytes(settings)), MemoryUsage.WRITE_SRC)
            .compose(slots -> peer.connect(new RpmaConnectOptions()
                    .setHost(settings.serverAddress()).setPort(settings.port())
                    .setConnectionOptions(LogServerVerticle.connectionOptions(settings)
                        // the server's host will vanish: notice within seconds, not 30
                        .setCompletionTimeoutMs(COMPLETION_TIMEOUT_MS)))
                .compose(connection -> {
                  RegionOffer offer = RegionOffer.fromBytes(connection.remotePrivateData());
                  RemoteMemoryRegion log = offer.applyTo(connection);
                  return DurableWriter.open(peer, connection, log, offer.peerConfig())
                      .map(durable -> {
                        System.out.println("power-loss client: appending, " + durable.method());
                        append(connection, slots, log, settings, durable, acked, ended);
                        return connection;
                      });
                })));
    try {
      connected.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.out.println("power-loss client: FAILED to start: " + Steps.describe(e));
      return 1;
    }
    String why = ended.get(settings.timeoutSeconds(), TimeUnit.SECONDS);
    System.out.println("power-loss client: appends ended: " + why);
    return 0;
  }

  /** Runs on the connection's context: every acknowledged append goes to the list first. */
  private static void append(RpmaConnection connection, MemoryRegion slots,
      RemoteMemoryRegion log, LogSettings settings, DurableWriter durable, AckLog acked,
      CompletableFuture<String> ended) {
    LogAppender appender = new LogAppender(connection, slots, log, settings, durable);
    WindowedRunner.run("record", settings.records(), settings.window(),
            (sequence, lane) -> appender.append(sequence, lane)
                .onSuccess(v -> acked.acknowledged(sequence)))
        .onComplete(ar -> ended.complete(ar.succeeded() ? "all records appended"
            : Steps.describe(ar.cause())));
  }

  private static void closeQuietly(AckLog acked) {
    try {
      acked.close();
    } catch (java.io.IOException e) {
      System.out.println("power-loss client: closing the list failed: " + e);
    }
  }
}
