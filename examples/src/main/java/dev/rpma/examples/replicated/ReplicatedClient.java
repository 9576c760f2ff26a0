package dev.rpma.examples.replicated;

import dev.rpma.examples.AckLog;
import dev.rpma.examples.ExampleLogging;
import dev.rpma.examples.LogSettings;
import dev.rpma.examples.NativeVertx;
import dev.rpma.examples.Steps;
import dev.rpma.examples.WindowedRunner;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The replicated log's writer: connects to every server of the set as writer {@code --epoch},
 * appends records {@code --first} to {@code --records} with a window of appends in flight, each
 * acknowledged once {@code --quorum} servers hold it durably, and lists every acknowledged
 * record in {@code --acked} as the acknowledgement comes ({@link AckLog}). A server lost on the
 * way leaves the set (recorded in {@code --set-file}); the writer goes on while a quorum is
 * left. Exit code 0 if every record was acknowledged; the verdict on what survived is the
 * checker's ({@link ReplicatedCheck}). With {@code --cluster=IP,...} it joins the Vert.x
 * cluster and finds its servers by name instead: every server published under the prefix
 * {@code --name} (default {@code replicated-log/}).
 *
 * <pre>
 *   ReplicatedClient --address=IP --servers=IP:PORT,... [--quorum=2] --records=N
 *                    [--window=16] [--epoch=1] --acked=FILE [--set-file=FILE]
 *   ReplicatedClient --address=IP --cluster=IP,IP,IP [--name=PREFIX] ...
 * </pre>
 */
public final class ReplicatedClient {

  private ReplicatedClient() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    ReplicatedSettings settings = ReplicatedSettings.parse(args);
    AckLog acked = new AckLog(settings.acked());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(acked)));
    Vertx vertx;
    ServerSet set;
    if (settings.cluster().isEmpty()) {
      vertx = NativeVertx.create();
      set = new StaticServerSet(vertx, settings.requireServers(), settings.setFile());
    } else {
      vertx = ClusterStart.join("replicated client", settings.log().address(),
          settings.cluster(), true);
      set = new DirectoryServerSet(vertx, RpmaDirectory.create(vertx),
          settings.namePrefix());
    }
    Context context = vertx.getOrCreateContext();
    Promise<String> ended = Promise.promise();
    long started = System.nanoTime();
    context.runOnContext(v -> run(vertx, settings, set, acked).onComplete(ended));
    int rc;
    try {
      String summary = ended.future().toCompletionStage().toCompletableFuture()
          .get(settings.log().timeoutSeconds(), TimeUnit.SECONDS);
      System.out.println("replicated client: PASSED: " + summary);
      rc = 0;
    } catch (Exception e) {
      System.out.println("replicated client: FAILED: " + Steps.describe(e.getCause()));
      rc = 1;
    } finally {
      closeQuietly(acked);
    }
    System.out.printf("replicated client: %d records acknowledged in %.1f s%n", acked.count(),
        (System.nanoTime() - started) / 1e9);
    System.exit(rc);
  }

  private static Future<String> run(Vertx vertx, ReplicatedSettings settings, ServerSet set,
      AckLog acked) {
    LogSettings log = settings.log();
    return RpmaPeer.open(vertx, log.address()).compose(peer -> peer.register(
            ByteBuffer.allocateDirect(ReplicatedAppender.slotBytes(log)), MemoryUsage.WRITE_SRC)
        .compose(slots -> expected(vertx, set, settings)
            .compose(servers -> openAll(peer, set, servers, settings))
            .compose(replicas -> {
              System.out.println("replicated client: writing as epoch " + settings.epoch()
                  + " to " + replicas + ", quorum " + settings.quorum());
              ReplicatedAppender appender = new ReplicatedAppender(log, slots, replicas,
                  settings.quorum(), settings.epoch(), set, acked::acknowledged);
              if (settings.oneCopyControl()) {
                appender.controlOneCopy();
                System.out.println("replicated client: CONTROL (--control-one-copy): each"
                    + " record acknowledged after one copy, one copy only while a server is"
                    + " away: the check must fail");
              }
              long first = settings.first();
              long[] next = {first}; // the next sequence number to append
              Pacer pacer = new Pacer(vertx, settings.paceMs());
              Rejoiner rejoiner = new Rejoiner(vertx, peer, set, appender, settings,
                  () -> next[0]);
              rejoiner.start();
              return WindowedRunner.run("record", log.records() - first, log.window(),
                      (index, lane) -> {
                        next[0] = first + index + 1;
                        return pacer.slot().compose(v -> appender.append(first + index, lane));
                      },
                      () -> goOn(settings, appender, next[0]))
                  .eventually(() -> {
                    rejoiner.stop();
                    // the checker's --away: what was acknowledged without each lost server
                    List<Absence> away = appender.absences(next[0]);
                    System.out.println("replicated client: absences: " + (away.isEmpty()
                        ? "none" : String.join(",", away.stream().map(Absence::toString)
                            .toList())));
                    return Future.succeededFuture();
                  })
                  .map(measured -> String.format("%d records from %d, %d servers at the end"
                          + " (%s); lost: %s; back: %s; from the last loss to the next"
                          + " acknowledgement: %d ms", measured.operations(), first,
                      appender.live().size(), appender.live(),
                      appender.losses().isEmpty() ? "none" : appender.losses().size(),
                      appender.rejoins().isEmpty() ? "none" : appender.rejoins().size(),
                      appender.goOnMillis()));
            })));
  }

  /**
   * Whether the writer starts another record: up to --stop-at, and with --until-whole=true,
   * once it lost a server, on past it until the set is whole again and --after-whole records
   * were acknowledged by it (never past --records, the log's end); never once --stop-file
   * exists.
   */
  private static boolean goOn(ReplicatedSettings settings, ReplicatedAppender appender,
      long next) {
    if (settings.stopFile() != null && Files.exists(settings.stopFile())) {
      return false;
    }
    if (next < settings.stopAt()) {
      return true;
    }
    return settings.untilWhole() && !appender.losses().isEmpty()
        && (!appender.whole() || appender.ackedSinceWhole() < settings.afterWhole());
  }

  /** The servers; in a cluster, once --expect of them are published (they start meanwhile). */
  private static Future<List<ServerAddress>> expected(Vertx vertx, ServerSet set,
      ReplicatedSettings settings) {
    return set.servers().compose(servers -> {
      if (!(set instanceof DirectoryServerSet) || servers.size() >= settings.expect()) {
        return Future.succeededFuture(servers);
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(500, id -> later.complete());
      return later.future().compose(v -> expected(vertx, set, settings));
    });
  }

  /** Connects to every server; a server that cannot be reached now is left out. */
  private static Future<List<Replica>> openAll(RpmaPeer peer, ServerSet set,
      List<ServerAddress> servers, ReplicatedSettings settings) {
    List<Future<Replica>> opening = new ArrayList<>();
    for (ServerAddress server : servers) {
      opening.add(Replica.open(peer, set, server, settings.epoch(),
              settings.connectionOptions())
          .onFailure(e -> System.out.println("replicated client: " + server
              + " left out: " + Steps.describe(e))));
    }
    return Future.join(opening).transform(ar -> {
      List<Replica> opened = new ArrayList<>();
      opening.stream().filter(Future::succeeded).forEach(f -> opened.add(f.result()));
      if (opened.size() < settings.quorum()) {
        return Future.failedFuture(new IllegalStateException("only " + opened.size()
            + " of " + servers + " reachable, fewer than the quorum of " + settings.quorum()));
      }
      return Future.succeededFuture(opened);
    });
  }

  private static void closeQuietly(AckLog acked) {
    try {
      acked.close();
    } catch (java.io.IOException e) {
      System.out.println("replicated client: closing the list failed: " + e);
    }
  }
}
