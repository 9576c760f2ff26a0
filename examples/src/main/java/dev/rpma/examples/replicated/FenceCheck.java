package dev.rpma.examples.replicated;

import dev.rpma.examples.AckLog;
import dev.rpma.examples.ExampleLogging;
import dev.rpma.examples.LogRecordFormat;
import dev.rpma.examples.LogSettings;
import dev.rpma.examples.NativeVertx;
import dev.rpma.examples.Steps;
import dev.rpma.examples.WindowedRunner;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A writer taking over from one cut off: writer A (epoch {@code --epoch}) appends
 * {@code --count} records from {@code --first}, and holds, beside its writer connections, a
 * reader connection to each server. Writer B (epoch + 1) then connects to the same servers,
 * which fence A first. A then tries to write a record marked {@link LogImage#FENCED_MARK}
 * through its writer connection (closed by the fence) and, with the key it was given, through
 * its reader connection (the key revoked by the re-registration): every such write must fail.
 * B finds the log's tail by reading the servers' logs and appends {@code --count} records
 * more (the marked record's slot lies past them: {@code --records} must exceed
 * {@code first + 2 * count}). Both writers' acknowledged records go to {@code --acked}; the checker then proves
 * they survived and that no marked record landed. Exit code 0 if every fenced write failed
 * and B's appends were acknowledged.
 *
 * <pre>
 *   FenceCheck --address=IP --servers=IP:PORT,... --records=N --first=F --count=C
 *              --epoch=E --acked=FILE
 * </pre>
 */
public final class FenceCheck {

  private FenceCheck() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    ReplicatedSettings settings = ReplicatedSettings.parse(args);
    int count = dev.rpma.examples.Settings.parse(args).integer("count", 50, 1, 1 << 20);
    AckLog acked = new AckLog(settings.acked());
    Vertx vertx = NativeVertx.create();
    Promise<String> ended = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v ->
        run(vertx, settings, count, acked).onComplete(ended));
    int rc;
    try {
      System.out.println("fence check: PASSED: " + ended.future().toCompletionStage()
          .toCompletableFuture().get(settings.log().timeoutSeconds(), TimeUnit.SECONDS));
      rc = 0;
    } catch (Exception e) {
      System.out.println("fence check: FAILED: " + Steps.describe(e.getCause()));
      rc = 1;
    } finally {
      acked.close();
    }
    System.exit(rc);
  }

  private static Future<String> run(Vertx vertx, ReplicatedSettings settings, int count,
      AckLog acked) {
    LogSettings log = settings.log();
    List<ServerAddress> servers = settings.requireServers();
    long epochA = settings.epoch();
    ServerSet set = new StaticServerSet(vertx, servers, settings.setFile());
    return RpmaPeer.open(vertx, log.address()).compose(peer -> peer.register(
            ByteBuffer.allocateDirect(ReplicatedAppender.slotBytes(log)), MemoryUsage.WRITE_SRC)
        .compose(slots -> openAll(peer, set, servers, epochA, settings).compose(writersA ->
            readers(peer, servers, settings).compose(readersA -> {
              long first = settings.first();
              return appendRun(log, slots, writersA, settings, epochA, set, acked, first, count)
                  .compose(v -> controlWrites(slots, log, writersA, readersA, first))
                  .compose(v -> openAll(peer, set, servers, epochA + 1, settings))
                  .compose(writersB -> {
                    System.out.println("fence check: writer of epoch " + (epochA + 1)
                        + " connected to " + writersB + "; the servers fenced epoch " + epochA);
                    return fencedWrites(slots, log, writersA, readersA, first + 2L * count)
                        .compose(refused -> tail(peer, servers, settings)
                            .compose(tail -> appendRun(log, slots, writersB, settings,
                                epochA + 1, set, acked, tail, count)
                                .map(v -> refused + "; epoch " + (epochA + 1) + " went on at "
                                    + tail + " and appended " + count + " records")));
                  });
            }))));
  }

  private static Future<List<Replica>> openAll(RpmaPeer peer, ServerSet set,
      List<ServerAddress> servers, long epoch, ReplicatedSettings settings) {
    List<Future<Replica>> opening = new ArrayList<>();
    servers.forEach(s -> opening.add(Replica.open(peer, set, s, epoch,
        settings.connectionOptions())));
    return Future.all(opening).map(all -> all.<Replica>list());
  }

  private static Future<List<RpmaConnection>> readers(RpmaPeer peer,
      List<ServerAddress> servers, ReplicatedSettings settings) {
    List<Future<RpmaConnection>> opening = new ArrayList<>();
    servers.forEach(s -> opening.add(peer.connect(new RpmaConnectOptions().setHost(s.host())
        .setPort(s.port()).setConnectionOptions(settings.connectionOptions())
        .setPrivateData(ReplicaHello.reader().toBytes()))));
    return Future.all(opening).map(all -> all.<RpmaConnection>list());
  }

  private static Future<Void> appendRun(LogSettings log, MemoryRegion slots,
      List<Replica> replicas, ReplicatedSettings settings, long epoch, ServerSet set,
      AckLog acked, long first, int count) {
    ReplicatedAppender appender = new ReplicatedAppender(log, slots, replicas,
        settings.quorum(), epoch, set, acked::acknowledged);
    return WindowedRunner.run("record", count, log.window(),
        (index, lane) -> appender.append(first + index, lane)).mapEmpty();
  }

  /**
   * The control: before the fence, writer A's key works through its reader connection too
   * (it rewrites record {@code sequence}, acknowledged already, with the same bytes), so what
   * fails after the fence fails because of it.
   */
  private static Future<Void> controlWrites(MemoryRegion slots, LogSettings log,
      List<Replica> writers, List<RpmaConnection> readers, long sequence) {
    int size = log.recordSize();
    LogRecordFormat.encode(slots.buffer(), 0, sequence, size);
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      writes.add(readers.get(i).write(writers.get(i).log(), log.offsetOf(sequence), slots, 0,
          size));
    }
    return Future.all(writes).onSuccess(v -> System.out.println("fence check: control: before"
            + " the fence, the writer's key works through its reader connections on "
            + writers))
        .recover(e -> Future.failedFuture(new IllegalStateException("the control failed:"
            + " before any fence, a write with the writer's key through its reader connection"
            + " failed: " + Steps.describe(e))))
        .mapEmpty();
  }

  /**
   * The fenced writer's attempts, on every server: a marked record through its writer
   * connection, and through its reader connection with its old key. Succeeds with a summary
   * if all failed; fails if any landed.
   */
  private static Future<String> fencedWrites(MemoryRegion slots, LogSettings log,
      List<Replica> writers, List<RpmaConnection> readers, long sequence) {
    int size = log.recordSize();
    LogRecordFormat.encode(slots.buffer(), 0, sequence | LogImage.FENCED_MARK, size);
    long offset = log.offsetOf(sequence);
    List<Future<Void>> attempts = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      Replica writer = writers.get(i);
      attempts.add(writer.connection().write(writer.log(), offset, slots, 0, size));
      attempts.add(readers.get(i).write(writer.log(), offset, slots, 0, size));
    }
    return Future.join(attempts).transform(ar -> {
      List<String> landed = new ArrayList<>();
      List<String> why = new ArrayList<>();
      for (int i = 0; i < attempts.size(); i++) {
        String via = writers.get(i / 2) + (i % 2 == 0 ? " (writer connection)"
            : " (reader connection, old key)");
        Future<Void> attempt = attempts.get(i);
        if (attempt.succeeded()) {
          landed.add(via);
        } else {
          why.add(via + ": " + Steps.describe(attempt.cause()));
        }
      }
      why.forEach(line -> System.out.println("fence check: refused " + line));
      if (!landed.isEmpty()) {
        return Future.failedFuture(new IllegalStateException("a fenced write was carried out"
            + " on " + landed));
      }
      return Future.succeededFuture("all " + attempts.size() + " fenced writes failed");
    });
  }

  /** Where the new writer goes on: past the highest record intact on any server it reads. */
  private static Future<Long> tail(RpmaPeer peer, List<ServerAddress> servers,
      ReplicatedSettings settings) {
    List<Future<LogImage>> reads = new ArrayList<>();
    servers.forEach(s -> reads.add(LogImage.read(peer, s, settings.log(),
        settings.connectionOptions())));
    return Future.all(reads).map(all -> all.<LogImage>list().stream()
        .mapToLong(LogImage::tail).max().orElse(0));
  }
}
