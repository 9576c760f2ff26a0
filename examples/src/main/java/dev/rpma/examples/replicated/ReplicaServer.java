package dev.rpma.examples.replicated;

import dev.rpma.examples.ExampleLogging;
import dev.rpma.examples.LogSettings;
import dev.rpma.examples.NativeVertx;
import dev.rpma.examples.Steps;
import dev.rpma.vertx.PersistService;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One server of the replicated log. Maps its log file, and, when it comes back to a set that
 * went on without it ({@code --catch-up-from=PEER}), first copies the peer's log into its own
 * by RDMA reads and persists it; only then does it listen and print {@code LISTENING}.
 *
 * <p>It serves one writer at a time, the one with the highest epoch it has seen: a writer with
 * a higher epoch fences the one before (its connection closed, the region registered anew so
 * that the old key fails) before it is accepted; a writer with a lower epoch, or a second one
 * with the same, is rejected. Readers are accepted at any time, but while it catches up.
 * Runs until --timeout or SIGTERM.
 *
 * <p>With {@code --rejoin-from=PEER}, a server whose writer lost it while it ran (the writer's
 * completion watchdog tripped on a stall, a flap cut the connection) takes that writer back,
 * the same epoch once more: it offers itself again (in a cluster, published anew, so the
 * writer sees news) and, once the writer is connected, reads from the peer every record the
 * writer appended without it ({@link CatchUp#gap}); readers wait until it is caught up. A
 * catch-up that fails drops the writer again, to be tried anew.
 *
 * <pre>
 *   ReplicaServer --address=IP --port=P --records=N --record-size=S --file=F
 *                 [--catch-up-from=IP:PORT] [--cluster=IP,... [--name=NAME]]
 * </pre>
 *
 * <p>With {@code --cluster} it joins the Vert.x cluster and publishes itself under
 * {@code --name} (default {@code replicated-log/ADDRESS:PORT}) once it listens.
 */
public final class ReplicaServer {

  private final Vertx vertx;
  private final ReplicatedSettings settings;
  private RpmaPeer peer;
  private ReplicaStore store;
  private long epoch;
  private RpmaConnection writer;
  private CatchUp rejoining;
  private boolean catchingUp;
  private boolean lostByWriter;
  private RpmaServer listening;
  private RpmaDirectory directory;
  private int offers;

  private ReplicaServer(Vertx vertx, ReplicatedSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    ReplicatedSettings settings = ReplicatedSettings.parse(args);
    // a server back after a power loss joins as a lite member: it holds none of the cluster
    // map's partitions, so nothing migrates to its cold JVM while it joins (in the guests, a
    // member's join with the migrations it starts outran a just-booted JVM: it missed the
    // master's heartbeats, was suspected and out of the cluster for a minute)
    Vertx vertx = settings.cluster().isEmpty() ? NativeVertx.create()
        : ClusterStart.join("replica server", settings.log().address(), settings.cluster(),
            settings.catchUpFrom() != null);
    ReplicaServer server = new ReplicaServer(vertx, settings);
    Context context = vertx.getOrCreateContext();
    Promise<Void> started = Promise.promise();
    context.runOnContext(v -> server.start().onComplete(started));
    try {
      started.future().toCompletionStage().toCompletableFuture()
          .get(settings.log().timeoutSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      System.out.println("replica server: FAILED to start: " + Steps.describe(e.getCause()));
      System.exit(1);
    }
    System.out.println("LISTENING");
    Thread.sleep(TimeUnit.SECONDS.toMillis(settings.log().timeoutSeconds()));
    System.exit(0);
  }

  private Future<Void> start() {
    LogSettings log = settings.log();
    return RpmaPeer.open(vertx, log.address())
        .compose(opened -> {
          peer = opened;
          return ReplicaStore.create(vertx, peer, log.file(), log.fileSize());
        })
        .compose(created -> {
          store = created;
          if (settings.catchUpFrom() == null) {
            return Future.succeededFuture();
          }
          return settings.rejoin() ? copyFirst() : catchUp();
        })
        .compose(v -> peer.listen(log.port(), log.address(), settings.connectionOptions(),
            this::onRequest))
        .compose(this::publish);
  }

  /**
   * In a cluster: published under its name, withdrawn when it closes or its node leaves. Each
   * offer of itself (again, after its writer lost it) publishes anew, numbered in its bytes: a
   * publication the writer passed over is then news.
   */
  private Future<Void> publish(RpmaServer server) {
    listening = server;
    if (settings.cluster().isEmpty()) {
      return Future.succeededFuture();
    }
    if (directory == null) {
      directory = RpmaDirectory.create(vertx);
    }
    byte[] offer = ("offer " + offers++).getBytes(StandardCharsets.US_ASCII);
    return directory.publish(settings.serverName(), server, settings.log().address(), offer)
        .onSuccess(published -> System.out.println("replica server: published as "
            + published.name() + " by node " + published.nodeId() + " ("
            + new String(published.offer(), StandardCharsets.US_ASCII) + ")"))
        .mapEmpty();
  }

  /** Copies the peer's log, then persists the copy: the server serves nothing before. */
  private Future<Void> catchUp() {
    long started = System.nanoTime();
    ServerAddress from = settings.catchUpFrom();
    return RemoteLogReader.copy(peer, from, store.region(), store.size(),
            settings.connectionOptions())
        .compose(v -> vertx.executeBlocking(() -> {
          store.persister().persist(0, store.size());
          return null;
        }))
        .onSuccess(v -> System.out.printf("replica server: CAUGHT UP from %s: %d bytes read"
                + " and persisted in %d ms%n", from, store.size(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)))
        .mapEmpty();
  }

  /** The first pass of a server back while the writer goes on: it listens after this. */
  private Future<Void> copyFirst() {
    ServerAddress from = settings.catchUpFrom();
    return CatchUp.copy(vertx, peer, from, store, settings.log(), settings.connectionOptions())
        .onSuccess(c -> {
          rejoining = c;
          System.out.println("replica server: COPIED the log from " + from + ", listening;"
              + " what it still misses is read once the writer is back");
          c.caughtUp().onSuccess(line -> System.out.println("replica server: CAUGHT UP from "
                  + from + ": " + line))
              .onFailure(e -> System.out.println("replica server: catching up FAILED: "
                  + Steps.describe(e)));
        })
        .mapEmpty();
  }

  private void onRequest(RpmaConnectionRequest request) {
    ReplicaHello hello;
    try {
      hello = ReplicaHello.fromBytes(request.privateData());
    } catch (IllegalArgumentException e) {
      System.out.println("replica server: rejected a client: " + e.getMessage());
      request.reject();
      return;
    }
    if (!hello.writer() && !caughtUp()) {
      System.out.println("replica server: rejected a reader: not caught up yet");
      request.reject();
      return;
    }
    if (!hello.writer()) {
      request.accept(store.offer()).onFailure(e -> System.out.println(
          "replica server: accepting a reader failed: " + Steps.describe(e)));
      return;
    }
    // once per epoch: a writer that lost this server wrote on without it, and must not come
    // back to a log that misses records (a server restarted with --catch-up-from is new),
    // unless this server reads what it missed from a peer first (--rejoin-from)
    boolean takeBack = hello.epoch() == epoch && lostByWriter && writer == null;
    if (hello.epoch() <= epoch && !takeBack) {
      System.out.printf("replica server: REJECTED writer of epoch %d (epoch %d %s)%n",
          hello.epoch(), epoch,
          hello.epoch() < epoch ? "is newer" : "connected here before");
      request.reject();
      return;
    }
    lostByWriter = false;
    if (takeBack) {
      catchingUp = true; // readers wait from now on: this log misses what came without it
    }
    // an older epoch has held a key: revoke it before the new writer gets one
    Future<Void> fenced = epoch == 0 || hello.epoch() == epoch ? Future.succeededFuture()
        : fence(hello.epoch());
    epoch = hello.epoch();
    fenced.compose(v -> PersistService.accept(peer, request, store.offer(), store.region(),
            store.persister()))
        .onSuccess(connection -> {
          writer = connection;
          connection.endHandler(v -> {
            if (writer == connection) {
              writer = null;
              lostWriter(connection);
            }
          });
          System.out.println("replica server: ACCEPTED writer of epoch " + hello.epoch()
              + " from " + connection.remoteAddress() + (takeBack ? " again" : ""));
          if (takeBack) {
            catchUpGap(connection);
          } else if (rejoining != null) {
            rejoining.writerJoined();
          }
        })
        .onFailure(e -> {
          System.out.println("replica server: accepting writer of epoch " + hello.epoch()
              + " failed: " + Steps.describe(e));
          if (takeBack) {
            catchingUp = false;
            lostByWriter = true;
          }
        });
  }

  /** Whether readers are served: not while this server catches up. */
  private boolean caughtUp() {
    return !catchingUp && (rejoining == null || rejoining.caughtUp().succeeded());
  }

  /**
   * The writer's connection ended while it was this server's writer (not fenced): from now on
   * the writer appends without it. With --rejoin-from it offers itself to be taken back.
   */
  private void lostWriter(RpmaConnection connection) {
    if (settings.rejoinFrom() == null || listening == null) {
      return;
    }
    lostByWriter = true;
    System.out.println("replica server: writer of epoch " + epoch + " gone ("
        + connection.remoteAddress() + "): it may take this server back, which then reads"
        + " what it missed from " + settings.rejoinFrom());
    publish(listening).onFailure(e -> System.out.println("replica server: publishing again"
        + " failed: " + Steps.describe(e)));
  }

  /**
   * Taken back by its writer: reads what the writer appended without it from the peer. If
   * that fails, the writer is dropped again (its connection closed), to be taken back anew.
   */
  private void catchUpGap(RpmaConnection connection) {
    ServerAddress from = settings.rejoinFrom();
    CatchUp.gap(vertx, peer, from, store, settings.log(), settings.connectionOptions())
        .onSuccess(c -> {
          rejoining = c;
          catchingUp = false;
          c.writerJoined();
          c.caughtUp().onSuccess(line -> System.out.println("replica server: CAUGHT UP from "
                  + from + " after its writer took it back: " + line))
              .onFailure(e -> dropForRetry(connection, "catching up failed: "
                  + Steps.describe(e)));
        })
        .onFailure(e -> {
          catchingUp = false;
          rejoining = null;
          dropForRetry(connection, "opening " + from + " failed: " + Steps.describe(e));
        });
  }

  private void dropForRetry(RpmaConnection connection, String why) {
    System.out.println("replica server: " + why + "; the writer is dropped, to take it back"
        + " again");
    // until a new catch-up completes, readers still wait
    catchingUp = true;
    connection.close();
  }

  /** Closes the old writer's connection, then re-registers the log: its old key is dead. */
  private Future<Void> fence(long newEpoch) {
    RpmaConnection old = writer;
    writer = null;
    long fencedEpoch = epoch;
    Future<Void> closed = old == null ? Future.succeededFuture()
        : old.close().recover(e -> Future.succeededFuture());
    return closed.compose(v -> store.reRegister())
        .onSuccess(v -> System.out.printf("replica server: FENCED epoch %d for epoch %d:"
                + " %s, region registered anew (registration %d)%n", fencedEpoch, newEpoch,
            old == null ? "its writer had gone" : "its connection closed",
            store.registrations()));
  }
}
