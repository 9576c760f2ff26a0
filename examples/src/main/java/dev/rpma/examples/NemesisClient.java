package dev.rpma.examples;

import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client of the nemesis run (scripts/nemesis.sh): appends durably to its log on the
 * {@link NemesisServer} while the nemesis breaks the wire, kills the server's process and
 * powers its host off, and reads acknowledged records back. Every record acknowledged goes to
 * {@code --acked=FILE} as the acknowledgement comes ({@link AckLog}), for the checker on the
 * server's host. A failed session ({@link NemesisSession}) is followed by a new connection,
 * tried every {@link #RETRY_MS} ms until the server answers again, which resumes at the first
 * record not acknowledged; a record must be acknowledged again within {@code --resume-within}
 * seconds ({@link #DEFAULT_RESUME_WITHIN_S}) of the failure. Ends once {@code --stop-file}
 * exists and no failed session awaits its resume (or its bound has passed), with its report
 * (printed, and as key=value lines in {@code --report}); exit code 0 only if no rule was
 * broken. {@code --control=never-reconnect} is a control for the resume rule: after its first
 * failed session the client never connects again (RPMA_NEMESIS_CONTROL in scripts/nemesis.sh);
 * its verdict must fail.
 *
 * <pre>
 *   NemesisClient --client=K --server=IP --address=IP --port=P --records=N --window=W
 *       --acked=FILE --report=FILE --stop-file=FILE --seed=S [--resume-within=S]
 *       [--control=never-reconnect]
 * </pre>
 */
public final class NemesisClient {

  static final int RETRY_MS = 1000;
  /**
   * How long after a fault ended a session a record must be acknowledged again (the client's
   * clock): the power loss of the server's host, its boot and its server's start took 335 s at
   * host load 33 (300 s was too tight there); the schedule allows the server 2400 s.
   */
  static final long DEFAULT_RESUME_WITHIN_S = 900;
  /** The server's host may vanish: notice within seconds, not the default 30. */
  private static final int COMPLETION_TIMEOUT_MS = 5000;

  private final Vertx vertx;
  private final LogSettings settings;
  private final AckLog ackLog;
  private final Path stopFile;
  private final SplittableRandom random;
  private final NemesisTally tally;
  private final BitSet acked = new BitSet();
  private final CompletableFuture<Void> finished = new CompletableFuture<>();
  private RpmaPeer peer;
  private MemoryRegion slots;
  private MemoryRegion readBack;
  private long next;
  private boolean stopRequested;
  /** The control {@code --control=never-reconnect}: no new session after a failed one. */
  private boolean neverReconnect;

  private NemesisClient(Vertx vertx, LogSettings settings, AckLog ackLog, Path stopFile,
      long seed, long resumeWithinSeconds) {
    this.vertx = vertx;
    this.tally = new NemesisTally(TimeUnit.SECONDS.toMillis(resumeWithinSeconds),
        () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
    this.settings = settings;
    this.ackLog = ackLog;
    this.stopFile = stopFile;
    this.random = new SplittableRandom(seed);
  }

  public static void main(String[] args) throws Exception {
    ExampleLogging.configure();
    Settings parsed = Settings.parse(args);
    LogSettings settings = LogSettings.from(parsed);
    int client = parsed.integer("client", 0, 0, 15);
    Path report = Path.of(parsed.string("report", "nemesis-client-" + client + ".report"));
    AckLog ackLog = new AckLog(Path.of(parsed.string("acked", "acked-" + client + ".txt")));
    Vertx vertx = NativeVertx.create();
    NemesisClient nemesis = new NemesisClient(vertx, settings, ackLog,
        Path.of(parsed.string("stop-file", "nemesis.stop")),
        parsed.number("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE) * 31 + client,
        parsed.number("resume-within", DEFAULT_RESUME_WITHIN_S, 1, 86400));
    nemesis.neverReconnect = switch (parsed.string("control", "none")) {
      case "none" -> false;
      case "never-reconnect" -> true;
      default -> throw new IllegalArgumentException("--control: none or never-reconnect");
    };
    Context context = vertx.getOrCreateContext();
    context.runOnContext(v -> nemesis.start());
    try {
      nemesis.finished.get(settings.timeoutSeconds(), TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      nemesis.tally.violation("the client did not finish within --timeout="
          + settings.timeoutSeconds() + " s (a session that never ended?)");
    }
    ackLog.close();
    nemesis.tally.finish();
    nemesis.tally.report(client, report);
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    System.exit(nemesis.tally.passed() ? 0 : 1);
  }

  private void start() {
    vertx.setPeriodic(500, id -> stopRequested |= Files.exists(stopFile));
    RpmaPeer.open(vertx, settings.address())
        .compose(opened -> {
          peer = opened;
          int bytes = LogAppender.slotBytes(settings);
          return peer.register(ByteBuffer.allocateDirect(bytes), MemoryUsage.WRITE_SRC)
              .compose(s -> {
                slots = s;
                return peer.register(ByteBuffer.allocateDirect(bytes), MemoryUsage.READ_DST);
              });
        })
        .onSuccess(region -> {
          readBack = region;
          connect();
        })
        .onFailure(e -> {
          tally.violation("the client could not start: " + Steps.describe(e));
          finished.complete(null);
        });
  }

  /** A new session, once the server answers; tried again and again until stopped. */
  private void connect() {
    if (stopping()) {
      finished.complete(null);
      return;
    }
    if (neverReconnect && tally.sessionFailures > 0) {
      // the control: a client whose reconnects all fail, which the verdict must fail
      vertx.setTimer(RETRY_MS, id -> connect());
      return;
    }
    tally.connectAttempts++;
    peer.connect(new RpmaConnectOptions().setHost(settings.serverAddress())
            .setPort(settings.port())
            .setConnectionOptions(LogServerVerticle.connectionOptions(settings)
                .setCompletionTimeoutMs(COMPLETION_TIMEOUT_MS).setConnectTimeoutMs(5000)
                .setKeepAliveMs(1000)))
        .compose(this::session)
        .onComplete(ar -> {
          if (ar.failed()) {
            vertx.setTimer(RETRY_MS, id -> connect());
            return;
          }
          NemesisSession session = ar.result();
          tally.sessions++;
          next = acked.nextClearBit(0);
          System.out.println("nemesis client: session " + tally.sessions + " resumes at record "
              + next + " (" + tally.acknowledged + " acknowledged so far)");
          session.run().onComplete(why -> {
            System.out.println("nemesis client: session " + tally.sessions + " ended: "
                + why.result());
            session.connection().close();
            vertx.setTimer(stopping() ? 1 : RETRY_MS, id -> connect());
          });
        });
  }

  private Future<NemesisSession> session(RpmaConnection connection) {
    RegionOffer offer = RegionOffer.fromBytes(connection.remotePrivateData());
    RemoteMemoryRegion log = offer.applyTo(connection);
    return DurableWriter.open(peer, connection, log, offer.peerConfig())
        .map(durable -> new NemesisSession(connection, log, durable, slots, readBack, this,
            random))
        .onFailure(e -> connection.close());
  }

  /** The next record to append, skipping those acknowledged already; -1 once the log is full. */
  long nextSequence() {
    next = acked.nextClearBit((int) next);
    return next < settings.records() ? next++ : -1;
  }

  /** Lists a record acknowledged as durable (the first time only). */
  void acknowledged(long sequence) {
    if (!acked.get((int) sequence)) {
      acked.set((int) sequence);
      tally.acknowledged();
      ackLog.acknowledged(sequence);
    }
  }

  /** A record acknowledged earlier, at random (there is one: a lane's own last append). */
  long someAcknowledged(SplittableRandom random) {
    int highest = acked.length() - 1;
    int found = acked.previousSetBit(random.nextInt(highest + 1));
    return found >= 0 ? found : highest;
  }

  /** Asked to stop, unless a session a fault ended still awaits its resume (within bound). */
  boolean stopping() {
    return (stopRequested && !tally.awaitingResume()) || next >= settings.records();
  }

  LogSettings settings() {
    return settings;
  }

  NemesisTally tally() {
    return tally;
  }
}
