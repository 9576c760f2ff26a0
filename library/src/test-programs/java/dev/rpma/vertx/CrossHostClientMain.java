package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The client side of the cross-host suite, on host 1, against {@link CrossHostServerMain} on
 * host 0 across the test bed's wire: operations byte-checked, then the faults that only a wire
 * has (a brief cut, a long cut, the peer process killed, the peer host powered off), each with
 * an idle connection and a busy one. Prints {@code PASS}/{@code FAIL} lines and
 * {@code MEASURE name ms} lines (detection times, for RELIABILITY.md); exits 1 on any FAIL.
 *
 * <p>Args: server address, port, the fault command (scripts/testbed: cut, heal, kill HOST).
 */
public final class CrossHostClientMain {

  /** Keepalive and watchdog of the fault scenarios: short, so that bounds are seconds. */
  static final int KEEPALIVE_MS = 1000;
  static final int COMPLETION_TIMEOUT_MS = 5000;
  /**
   * The promised bounds: the watchdog notices a stall after one to one and a half completion
   * timeouts (it checks every half); an idle connection is probed one to two keepalive
   * intervals after its last completion, and its probe then ends like any stuck operation.
   */
  static final int BUSY_BOUND_MS = COMPLETION_TIMEOUT_MS * 3 / 2;
  static final int IDLE_BOUND_MS = 2 * KEEPALIVE_MS + BUSY_BOUND_MS;
  /**
   * What a bound allows beyond its promise: timer granularity, a slow emulated guest, and the
   * fault request itself (times run from it; it takes 1 to 1.6 s to be in place).
   */
  static final int SLACK_MS = 4000;

  private final Vertx vertx = RdmaTestSupport.nativeVertx();
  private final String ip;
  private final int port;
  private final Faults faults;
  private RpmaPeer peer;
  private MemoryRegion local;
  private int failures;

  private CrossHostClientMain(String ip, int port, Faults faults) {
    this.ip = ip;
    this.port = port;
    this.faults = faults;
  }

  public static void main(String[] args) throws Exception {
    CrossHostClientMain main = new CrossHostClientMain(args[0], Integer.parseInt(args[1]),
        new Faults(args[2]));
    try {
      main.run();
    } catch (Throwable t) {
      // Vert.x's threads would keep the JVM, and the host's run, alive
      t.printStackTrace();
      System.exit(2);
    }
    System.exit(main.failures == 0 ? 0 : 1);
  }

  private void run() throws Exception {
    peer = await(RpmaPeer.open(vertx, System.getenv().getOrDefault("RPMA_TEST_IP", ip)));
    local = await(peer.register(ByteBuffer.allocateDirect(CrossHostServerMain.REGION_SIZE),
        MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST, MemoryUsage.SEND));
    operationsAcrossTheWire();
    aBriefCutLosesNothing();
    aLongCutClosesBothConnectionsAndNewOnesWorkAfterTheHeal();
    aKilledPeerProcessClosesBothConnections();
    aPoweredOffPeerHostClosesBothConnections();
  }

  // ---------------------------------------------------------------- scenarios

  private void operationsAcrossTheWire() throws Exception {
    // the server's JVM may still be starting on its host: the usual rendezvous, retrying
    Link link = connectRetrying(new ConnectionOptions(), 180_000);
    Random random = new Random(20261123);
    int rounds = 1000;
    int wrong = 0;
    for (int i = 0; i < rounds; i++) {
      int length = 1 + random.nextInt(4096);
      int offset = random.nextInt(256 * 1024 - length);
      byte[] data = new byte[length];
      random.nextBytes(data);
      local.buffer().put(offset, data);
      await(link.conn.write(link.remote, offset, local, offset, length));
      local.buffer().put(offset, new byte[length]);
      await(link.conn.read(local, offset, link.remote, offset, length));
      byte[] back = new byte[length];
      local.buffer().get(offset, back);
      wrong += java.util.Arrays.equals(data, back) ? 0 : 1;
    }
    check(wrong == 0, rounds + " writes across the wire read back byte for byte (" + wrong
        + " differ)");
    link.close();
  }

  private void aBriefCutLosesNothing() throws Exception {
    Link idle = connect(options());
    Link busy = connect(options());
    Writer writer = new Writer(busy, 16);
    Thread.sleep(500);
    faults.cutBriefly();
    Thread.sleep(4000); // the device retransmits what was lost (after ~3 s on rxe)
    writer.stop();
    check(writer.failed == 0 && writer.done > 0, "a " + Faults.BRIEF_CUT_MS + " ms cut: "
        + writer.done + " writes completed, " + writer.failed + " failed");
    check(idle.reason.future().isComplete() == false && busy.reason.future().isComplete()
        == false, "a " + Faults.BRIEF_CUT_MS + " ms cut: both connections stay open");
    idle.close();
    busy.close();
  }

  private void aLongCutClosesBothConnectionsAndNewOnesWorkAfterTheHeal() throws Exception {
    underFault("long cut", faults::cut);
    faults.heal();
    Link after = connectRetrying(options(), 30_000);
    Future<Void> write = after.conn.write(after.remote, 0, local, 0, 64);
    write.toCompletionStage().toCompletableFuture().handle((v, e) -> v)
        .get(Await.SECONDS, TimeUnit.SECONDS);
    check(write.succeeded(), "long cut: after the heal, a new connection writes"
        + (write.failed() ? ": " + write.cause() : ""));
    after.close();
  }

  private void aKilledPeerProcessClosesBothConnections() throws Exception {
    underFault("peer process killed", () -> {
      local.buffer().put(0, CrossHostServerMain.HALT);
      // a connection of its own carries the command, so the idle one stays idle
      await(await(peer.connect(new RpmaConnectOptions().setHost(ip).setPort(port)
          .setConnectionOptions(options()))).send(local, 0, 1));
    });
    // its host restarts it (scripts/testbed/cross-host.sh), for the power-off scenario
    connectRetrying(options(), 60_000).close();
  }

  private void aPoweredOffPeerHostClosesBothConnections() throws Exception {
    underFault("peer host powered off", faults::powerOffServer);
  }

  /**
   * An idle and a busy connection (a window of 16 writes), then the fault: both must close
   * within their bounds (keepalive for the idle one, the watchdog at worst for the busy one),
   * with no write left pending.
   */
  private void underFault(String scenario, Runnable fault) throws InterruptedException {
    Link idle = connect(options());
    Link busy = connect(options());
    Writer writer = new Writer(busy, 16);
    Thread.sleep(500);
    long at = System.nanoTime();
    fault.run();
    expectClosed(scenario, idle, at, IDLE_BOUND_MS);
    expectClosed(scenario, busy, at, BUSY_BOUND_MS);
    writer.stop();
    check(writer.pending() == 0, scenario + ": no write left pending (" + writer.done
        + " completed, " + writer.failed + " failed)");
  }

  // ---------------------------------------------------------------- helpers

  private static ConnectionOptions options() {
    return new ConnectionOptions().setKeepAliveMs(KEEPALIVE_MS)
        .setCompletionTimeoutMs(COMPLETION_TIMEOUT_MS).setConnectTimeoutMs(10_000);
  }

  private void expectClosed(String scenario, Link link, long since, int boundMs) {
    long deadline = since + (boundMs + SLACK_MS + 30_000L) * 1_000_000;
    // check() below reports a close that did not come
    Await.holdsWithin(Duration.ofNanos(deadline - System.nanoTime()),
        () -> link.reason.future().isComplete());
    long ms = (link.closedAt - since) / 1_000_000;
    String which = link.busy ? "busy" : "idle";
    System.out.println("MEASURE " + scenario.replace(' ', '-') + "-" + which + " " + ms);
    check(link.reason.future().isComplete() && ms <= boundMs + SLACK_MS, scenario + ": the "
        + which + " connection closed after " + ms + " ms (bound " + boundMs + " ms + "
        + SLACK_MS + "): " + (link.reason.future().isComplete()
            ? link.reason.future().result().getMessage() : "never"));
  }

  private void check(boolean ok, String what) {
    System.out.println((ok ? "PASS " : "FAIL ") + what);
    failures += ok ? 0 : 1;
  }


  private Link connect(ConnectionOptions options) {
    RpmaConnection conn = await(peer.connect(new RpmaConnectOptions().setHost(ip).setPort(port)
        .setConnectionOptions(options)));
    return new Link(conn);
  }

  private Link connectRetrying(ConnectionOptions options, long forMs) throws Exception {
    long deadline = System.nanoTime() + forMs * 1_000_000;
    for (;;) {
      try {
        return connect(options);
      } catch (AssertionError e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(1000);
      }
    }
  }

  /** A connection, the server's region, and when and why it closed. */
  private static final class Link {
    final RpmaConnection conn;
    final RemoteMemoryRegion remote;
    final Promise<Throwable> reason = Promise.promise();
    volatile long closedAt;
    boolean busy;

    Link(RpmaConnection conn) {
      this.conn = conn;
      this.remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      conn.closeHandler(why -> {
        closedAt = System.nanoTime();
        reason.tryComplete(why);
      });
    }

    void close() {
      await(conn.close().otherwiseEmpty());
    }
  }

  /** Keeps a window of 4 KiB writes in flight on a link until stopped or failing. */
  private final class Writer {
    final Link link;
    volatile boolean stopped;
    volatile int done;
    volatile int failed;
    private final List<Future<Void>> all = new ArrayList<>();

    Writer(Link link, int window) {
      this.link = link;
      link.busy = true;
      for (int i = 0; i < window; i++) {
        next(i);
      }
    }

    private void next(int lane) {
      if (stopped) {
        return;
      }
      long offset = 256 * 1024 + lane * 4096L;
      Future<Void> w = link.conn.write(link.remote, offset, local, offset, 4096);
      synchronized (all) {
        all.add(w);
      }
      w.onComplete(ar -> {
        if (ar.succeeded()) {
          done++;
          next(lane);
        } else {
          failed++;
        }
      });
    }

    void stop() {
      stopped = true;
    }

    /** Writes whose Future has not completed, a moment after stopping. */
    int pending() {
      Await.holdsWithin(Duration.ofSeconds(10), () -> countPending() == 0);
      return countPending();
    }

    private int countPending() {
      synchronized (all) {
        return (int) all.stream().filter(f -> !f.isComplete()).count();
      }
    }
  }
}
