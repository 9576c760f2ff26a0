package dev.rpma.bench;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The cross-host pass of {@code ./dev bench} (scripts/bench-cross-host.sh): the library and the
 * C reference with their server on one host and their client on another, across the wire.
 *
 * <pre>
 *   --role server [--addr OWN_IP] [--port P]
 *       the library's server: a region offered to every connection; prints LISTENING, serves
 *       until the process is stopped
 *   --role client [--addr OWN_IP] --server SERVER_IP [--port P] --c-reference BINARY
 *                 --c-port P2 [BenchConfig's options: --out, --rounds, --lat-ops, ...]
 *       the scenarios, library (one connection to SERVER_IP:P) and C reference (a process per
 *       scenario, against rpma_bench --role server on SERVER_IP:P2), back to back
 * </pre>
 *
 * <p>As BenchMain: first the library warms up on these scenarios until the JIT is quiet; then
 * {@code rounds} passes, each scenario measured for the library and C back to back, the one that
 * goes first alternating from round to round. Writes the lines BenchMain writes (Report).
 */
public final class CrossHostBenchMain {

  /** Latency at 64 B (read, write) and the throughput of a window of 64 writes of 64 B. */
  static final List<Scenario> SCENARIOS = List.of(Scenario.latency(Op.READ, 64),
      Scenario.latency(Op.WRITE, 64), Scenario.throughput(64));

  private CrossHostBenchMain() {
  }

  /** Exits 0 when every scenario ran, 1 otherwise (Vert.x's threads must not keep it alive). */
  public static void main(String[] args) {
    int status = 1;
    try {
      // our own options; the rest are BenchMain's (BenchConfig)
      Map<String, String> own = new HashMap<>();
      List<String> rest = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        if (!List.of("--role", "--server", "--c-port").contains(args[i])) {
          rest.add(args[i]);
        } else if (i + 1 < args.length) {
          own.put(args[i], args[++i]);
        } else {
          throw usage("missing value after " + args[i]);
        }
      }
      BenchConfig config = BenchConfig.parse(rest.toArray(String[]::new));
      String role = own.getOrDefault("--role", "");
      if (role.equals("server")) {
        serve(config);
      } else if (role.equals("client") && own.containsKey("--server")
          && own.containsKey("--c-port") && config.cReference != null) {
        measure(config, own.get("--server"), Integer.parseInt(own.get("--c-port")));
      } else {
        throw usage("--role server, or --role client with --server, --c-port, --c-reference");
      }
      status = 0;
      System.err.println("bench: cross-host " + role + " done");
    } catch (Throwable t) {
      System.err.print("bench: cross-host failed: ");
      t.printStackTrace();
    } finally {
      System.exit(status);
    }
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(problem + "\nusage: CrossHostBenchMain --role server"
        + " [--addr IP] [--port P] | --role client [--addr IP] --server IP [--port P]"
        + " --c-reference PATH --c-port P [BenchMain's options]");
  }

  /** The library's server end, until the process is stopped (the script sends SIGTERM). */
  private static void serve(BenchConfig config) throws InterruptedException {
    Vertx vertx = Fixture.nativeVertx();
    RpmaPeer peer = Fixture.await(RpmaPeer.open(vertx, config.address));
    MemoryRegion region = Fixture.await(peer.register(
        ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE), EnumSet.of(MemoryUsage.READ_SRC,
            MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_VISIBILITY)));
    byte[] offer = RegionOffer.of(PeerConfig.create(false), region).toBytes();
    Fixture.await(Fixture.onContext(((VertxInternal) vertx).createEventLoopContext(),
        () -> peer.listen(config.port, config.address, BenchConfig.connectionOptions(),
            req -> req.accept(offer))));
    System.out.printf(Locale.ROOT, "LISTENING %s:%d%n", config.address, config.port);
    System.out.flush();
    new CountDownLatch(1).await(); // the one-sided operations need nothing from this side
  }

  /** The client end: the library's connection, warm-up, then the rounds. */
  private static void measure(BenchConfig config, String server, int cPort) throws Exception {
    Vertx vertx = Fixture.nativeVertx();
    try (Report report = new Report(config.out)) {
      RpmaPeer peer = Fixture.await(RpmaPeer.open(vertx, config.address));
      MemoryRegion local = Fixture.await(peer.register(
          ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE),
          EnumSet.of(MemoryUsage.READ_DST, MemoryUsage.WRITE_SRC)));
      RpmaConnection connection = Fixture.await(Fixture.onContext(
          ((VertxInternal) vertx).createEventLoopContext(),
          () -> peer.connect(new RpmaConnectOptions()
              .setHost(server).setPort(config.port)
              .setConnectionOptions(BenchConfig.connectionOptions()))));
      RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
          RegionOffer.fromBytes(connection.remotePrivateData()).regionDescriptor());
      LibraryDriver library = new LibraryDriver(connection, local, remote);

      Map<String, String> facts = BenchMain.facts();
      facts.put("client_address", config.address);
      facts.put("server_address", server);
      facts.putAll(WarmUp.untilJitQuiet(config,
          () -> WarmUp.round(config, List.of(library), SCENARIOS::contains)));
      report.facts(facts);
      List<Contender> contenders = List.of(
          CReference.acrossHosts(config.cReference, server, cPort, config),
          new DriverContender(library, config));
      for (int round = 1; round <= config.rounds; round++) {
        long t0 = System.nanoTime();
        for (Scenario s : SCENARIOS) {
          for (Contender c : BenchMain.rotated(contenders, round - 1)) {
            c.run(s, round, report);
          }
        }
        System.err.printf(Locale.ROOT, "bench: cross-host round %d done in %.1f s%n", round,
            (System.nanoTime() - t0) / 1e9);
      }
      Fixture.await(library.close());
      Fixture.await(peer.close());
    } finally {
      Fixture.await(vertx.close());
    }
  }
}
