package dev.rpma.examples.replicated;

import dev.rpma.examples.AckLog;
import dev.rpma.examples.ExampleLogging;
import dev.rpma.examples.NativeVertx;
import dev.rpma.examples.Settings;
import dev.rpma.examples.Steps;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The replicated log's checker: reads the log of every server still up by RDMA reads and holds
 * them to the writers' lists of acknowledged records and to the quorum they were acknowledged
 * at ({@code --quorum}, default 2). Passes only if
 * <ul>
 *   <li>every acknowledged record is intact on at least a quorum of the servers that were in
 *       the writer's set when it was acknowledged: a server named in {@code --away} for it
 *       does not count (with three servers and one away, a record acknowledged at quorum 2 must
 *       be on both others; a copy the server made from a peer on its return is no substitute);
 *       a writer that acknowledged after one copy fails here;
 *   <li>every server named in {@code --complete} (e.g. one that caught up) holds every
 *       acknowledged record;
 *   <li>no slot of any of them holds a record a fenced writer tried to write.
 * </ul>
 *
 * <pre>
 *   ReplicatedCheck --address=IP --servers=IP:PORT,... --records=N --record-size=S
 *                   --acked=FILE[,FILE...] [--quorum=2] [--complete=IP:PORT,...]
 *                   [--away=IP:PORT@FROM-TO,...]
 * </pre>
 */
public final class ReplicatedCheck {

  /** How long a server's log is tried again (the run gives the check 600 s in all). */
  static final int RETRY_SECONDS = 300;
  static final long RETRY_PERIOD_MS = 2000;

  private ReplicatedCheck() {
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    ReplicatedSettings settings = ReplicatedSettings.parse(args);
    Settings raw = Settings.parse(args);
    List<ServerAddress> complete = ServerAddress.parseList(raw.string("complete", ""),
        settings.log().port());
    List<Absence> away = Absence.parseList(raw.string("away", ""), settings.log().port());
    BitSet acked = new BitSet();
    for (String file : raw.string("acked", "acked.txt").split(",")) {
      AckLog.read(Path.of(file)).forEach(seq -> acked.set(Math.toIntExact(seq)));
    }
    Vertx vertx = NativeVertx.create();
    Promise<List<LogImage>> read = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> readAll(vertx, settings).onComplete(read));
    List<LogImage> images;
    try {
      images = read.future().toCompletionStage().toCompletableFuture()
          .get(settings.log().timeoutSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      System.out.println("replicated check: FAILED: reading the logs: "
          + Steps.describe(e.getCause()));
      System.exit(1);
      return;
    }
    System.exit(judge(acked, images, settings.quorum(), complete, away) ? 0 : 1);
  }

  private static Future<List<LogImage>> readAll(Vertx vertx, ReplicatedSettings settings) {
    return RpmaPeer.open(vertx, settings.log().address())
        .compose(peer -> readFrom(vertx, peer, settings, new ArrayList<>()));
  }

  /** One server after the other: the emulated wire is slow enough with one copy at a time. */
  private static Future<List<LogImage>> readFrom(Vertx vertx, RpmaPeer peer,
      ReplicatedSettings settings, List<LogImage> images) {
    List<ServerAddress> servers = settings.requireServers();
    if (images.size() == servers.size()) {
      return Future.succeededFuture(images);
    }
    return readRetrying(vertx, peer, servers.get(images.size()), settings,
            System.nanoTime() + TimeUnit.SECONDS.toNanos(RETRY_SECONDS), false)
        .compose(image -> {
          images.add(image);
          return readFrom(vertx, peer, settings, images);
        });
  }

  /**
   * Reads one server's log; a read that fails (a server still catching up after its writer
   * took it back refuses readers until it holds what it missed) is tried again every
   * {@value #RETRY_PERIOD_MS} ms until {@code deadline}.
   */
  private static Future<LogImage> readRetrying(Vertx vertx, RpmaPeer peer,
      ServerAddress server, ReplicatedSettings settings, long deadline, boolean told) {
    return LogImage.read(peer, server, settings.log(), settings.connectionOptions())
        .recover(e -> {
          if (System.nanoTime() > deadline) {
            return Future.failedFuture(e);
          }
          if (!told) {
            System.out.println("replicated check: reading " + server + " failed ("
                + Steps.describe(e) + "); trying again every " + RETRY_PERIOD_MS
                + " ms for up to " + RETRY_SECONDS + " s (a server catching up refuses"
                + " readers)");
          }
          Promise<Void> later = Promise.promise();
          vertx.setTimer(RETRY_PERIOD_MS, id -> later.complete());
          return later.future().compose(v -> readRetrying(vertx, peer, server, settings,
              deadline, true));
        });
  }

  static boolean judge(BitSet acked, List<LogImage> images, int quorum,
      List<ServerAddress> complete, List<Absence> away) {
    BitSet anywhere = new BitSet();
    BitSet fenced = new BitSet();
    images.forEach(image -> {
      anywhere.or(image.intact());
      fenced.or(image.fenced());
    });
    BitSet lost = (BitSet) acked.clone();
    lost.andNot(anywhere);
    BitSet underQuorum = underQuorum(acked, images, quorum, away);
    List<String> incomplete = new ArrayList<>();
    for (LogImage image : images) {
      BitSet missing = (BitSet) acked.clone();
      missing.andNot(image.intact());
      if (complete.contains(image.server()) && !missing.isEmpty()) {
        incomplete.add(image.server() + " misses " + missing.cardinality()
            + " acknowledged records, the first " + missing.nextSetBit(0));
      }
    }
    boolean passed = !acked.isEmpty() && lost.isEmpty() && underQuorum.isEmpty()
        && fenced.isEmpty() && incomplete.isEmpty();
    System.out.println("replicated check: " + (passed ? "PASSED" : "FAILED"));
    System.out.printf("  acknowledged   %d records at quorum %d%s%n", acked.cardinality(), quorum,
        away.isEmpty() ? "" : ", away: " + away);
    for (LogImage image : images) {
      BitSet held = (BitSet) acked.clone();
      held.and(image.intact());
      System.out.printf("  %-20s %d intact records, %d of the acknowledged%s%n", image.server(),
          image.intact().cardinality(), held.cardinality(),
          complete.contains(image.server()) ? " (must hold all)" : "");
    }
    System.out.printf("  lost           %d acknowledged records intact on no server%s%n",
        lost.cardinality(), lost.isEmpty() ? "" : ", the first " + lost.nextSetBit(0));
    System.out.printf("  under quorum   %d acknowledged records intact on fewer than %d of the"
        + " servers in the set when acknowledged%s%n", underQuorum.cardinality(), quorum,
        underQuorum.isEmpty() ? "" : ", the first " + firstHolders(underQuorum, images));
    System.out.printf("  fenced writes  %d landed%n", fenced.cardinality());
    incomplete.forEach(line -> System.out.println("  incomplete     " + line));
    if (acked.isEmpty()) {
      System.out.println("  nothing was acknowledged: the run proves nothing");
    }
    return passed;
  }

  /** The acknowledged records with fewer than {@code quorum} copies that count. */
  private static BitSet underQuorum(BitSet acked, List<LogImage> images, int quorum,
      List<Absence> away) {
    BitSet under = new BitSet();
    for (int seq = acked.nextSetBit(0); seq >= 0; seq = acked.nextSetBit(seq + 1)) {
      int copies = 0;
      for (LogImage image : images) {
        if (image.intact().get(seq) && !awayFor(away, image.server(), seq)) {
          copies++;
        }
      }
      if (copies < quorum) {
        under.set(seq);
      }
    }
    return under;
  }

  private static boolean awayFor(List<Absence> away, ServerAddress server, long seq) {
    return away.stream().anyMatch(absence -> absence.covers(server, seq));
  }

  /** The first record under quorum and where it is intact: what a reader of the verdict needs. */
  private static String firstHolders(BitSet under, List<LogImage> images) {
    int seq = under.nextSetBit(0);
    List<ServerAddress> on = images.stream().filter(image -> image.intact().get(seq))
        .map(LogImage::server).toList();
    return seq + " (intact on " + (on.isEmpty() ? "none" : on) + ")";
  }
}
