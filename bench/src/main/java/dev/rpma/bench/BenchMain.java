package dev.rpma.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The driver of {@code ./dev bench} on the device: the C reference (a process per scenario),
 * the library, its variants (io_uring, metrics on: {@link Variants}, on some scenarios) and the
 * thread-hop design, same scenarios, one JVM. Writes one JSON line per
 * scenario, design and round (see Report); bench/report.py makes the tables.
 *
 * <p>Order: a warm-up of every path of both Java designs until the JIT is quiet; then
 * {@code rounds} passes over the scenarios, each scenario measured for the three designs back
 * to back, their order rotating from round to round, so that drift in the load of the shared
 * host hits all three alike and none is always first.
 */
public final class BenchMain {

  private BenchMain() {
  }

  /** Exits 0 when every scenario ran, 1 otherwise (Vert.x's threads must not keep it alive). */
  public static void main(String[] args) {
    int status = 1;
    try {
      run(BenchConfig.parse(args));
      status = 0;
      System.err.println("bench: done");
    } catch (Throwable t) {
      System.err.print("bench: failed: ");
      t.printStackTrace();
    } finally {
      System.exit(status);
    }
  }

  private static void run(BenchConfig config) throws Exception {
    try (Report report = new Report(config.out); Fixture fixture = Fixture.open(config);
        Variants variants = config.variants ? Variants.open(config) : Variants.none()) {
      List<Driver> drivers = List.of(fixture.library, fixture.threadHop);
      Map<String, String> facts = facts();
      facts.putAll(warmUp(config, drivers, variants.drivers()));
      report.facts(facts);
      List<Contender> contenders = new ArrayList<>();
      // the C processes' ports: above the library's server, which listens on config.port
      AtomicInteger ports = new AtomicInteger(config.port + 100);
      if (config.cReference != null) {
        contenders.add(new CReference(config.cReference, "blocking", config, ports));
      }
      contenders.add(new DriverContender(fixture.library, config));
      for (Driver d : variants.drivers()) {
        contenders.add(new DriverContender(d, config, Variants::covers));
      }
      contenders.add(new DriverContender(fixture.threadHop, config));
      if (config.cReference != null) {
        contenders.add(new CReference(config.cReference, "epoll", config, ports));
        if (config.variants) { // the hybrid variant's reference
          contenders.add(new CReference(config.cReference, "busy", config, ports,
              Variants::covers));
        }
      }
      for (int round = 1; round <= config.rounds; round++) {
        runRound(round, rotated(contenders, round - 1), report);
      }
      if (config.probeMs > 0) {
        for (Driver d : drivers) {
          LoopProbe.run(d, 64, config.probeMs, report);
        }
        for (Driver d : variants.drivers()) {
          if (d.name().equals(Variants.IO_URING)) { // the other transport's loop
            LoopProbe.run(d, 64, config.probeMs, report);
          }
        }
      }
      if (config.scaleMs > 0) {
        ScaleBench.run(fixture.vertx, config, report);
      }
    }
  }

  private static void runRound(int round, List<Contender> contenders, Report report)
      throws Exception {
    long t0 = System.nanoTime();
    for (Scenario s : Scenario.all()) {
      for (Contender c : contenders) {
        if (c.covers(s)) {
          c.run(s, round, report);
        }
      }
    }
    System.err.printf(Locale.ROOT, "bench: round %d done in %.1f s%n", round,
        (System.nanoTime() - t0) / 1e9);
  }

  private static <T> List<T> rotated(List<T> list, int by) {
    List<T> r = new ArrayList<>(list);
    Collections.rotate(r, -(by % Math.max(1, list.size())));
    return r;
  }

  /**
   * Rounds of every scenario of both designs, unmeasured, until the JIT is quiet: a round in
   * which compilation took at most {@link BenchConfig#JIT_QUIET_SHARE} of the round's time. On
   * the emulator a compilation takes its time from the measured code (all guest CPUs share one
   * host thread), and C2 needs tens of seconds there to settle; a fixed count would be a guess.
   * Gives up after {@code warmupMaxSeconds} and says so in the facts.
   */
  private static Map<String, String> warmUp(BenchConfig config, List<Driver> drivers,
      List<Driver> variants) {
    long start = System.nanoTime();
    long deadline = start + config.warmupMaxSeconds * 1_000_000_000L;
    int round = 0;
    boolean quiet = false;
    long lastJit = -1;
    while (!quiet && System.nanoTime() < deadline) {
      round++;
      JvmActivity before = JvmActivity.now();
      long t0 = System.nanoTime();
      warmUpRound(config, drivers, s -> true);
      warmUpRound(config, variants, Variants::covers);
      double roundMs = (System.nanoTime() - t0) / 1e6;
      lastJit = JvmActivity.now().since(before).jitMillis();
      quiet = round >= 2 && lastJit <= BenchConfig.JIT_QUIET_SHARE * roundMs;
      System.err.printf(Locale.ROOT, "bench: warm-up round %d: %.1f s, JIT %d ms%n", round,
          roundMs / 1e3, lastJit);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!quiet) {
      System.err.printf(Locale.ROOT, "bench: warning: the JIT was still busy after %.0f s of"
          + " warm-up; the figures may include compilation%n", seconds);
    }
    Map<String, String> f = new LinkedHashMap<>();
    f.put("warmup_rounds", String.valueOf(round));
    f.put("warmup_s", String.format(Locale.ROOT, "%.1f", seconds));
    f.put("warmup_last_round_jit_ms", String.valueOf(lastJit));
    f.put("warmup_jit_quiet", String.valueOf(quiet));
    return f;
  }

  private static void warmUpRound(BenchConfig config, List<Driver> drivers,
      Predicate<Scenario> scenarios) {
    for (Driver d : drivers) {
      for (Scenario s : Scenario.all()) {
        if (!scenarios.test(s)) {
          continue;
        }
        if (s.isLatency()) {
          Fixture.await(LatencyRun.run(d, s.op(), s.size(), config.warmupRoundOps));
        } else {
          Fixture.await(ThroughputRun.run(d, s.window(), s.size(),
              config.warmupRoundWindowMs * 1_000_000));
        }
      }
    }
  }

  /** Versions and settings, for the table: read at run time, never written down by hand. */
  private static Map<String, String> facts() throws IOException {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("jdk", System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version"));
    f.put("vertx", vertxVersion());
    f.put("netty", nettyVersion());
    f.put("jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    f.put("available_processors", String.valueOf(Runtime.getRuntime().availableProcessors()));
    return f;
  }

  private static String vertxVersion() throws IOException {
    try (InputStream in = io.vertx.core.Vertx.class.getClassLoader()
        .getResourceAsStream("META-INF/vertx/vertx-version.txt")) {
      return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  private static String nettyVersion() {
    io.netty.util.Version v = io.netty.util.Version.identify().get("netty-transport-native-epoll");
    if (v == null) {
      v = io.netty.util.Version.identify().get("netty-common");
    }
    return v == null ? "unknown" : v.artifactVersion();
  }
}
