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

/**
 * The driver of {@code ./dev bench} on the device: the C reference (a process per scenario),
 * the library, its variants (io_uring, metrics on: {@link Variants}, on some scenarios) and the
 * thread-hop design, same scenarios, one JVM. Writes one JSON line per
 * scenario, design and round (see Report); bench/report.py makes the tables.
 *
 * <p>Order: a warm-up of every path of both Java designs until the JIT is quiet; then
 * {@code rounds} passes over the scenarios (the throughput scenarios may have more:
 * {@link BenchConfig#throughputRounds}), each scenario measured for the three designs back
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
    if (config.scaleOnly) {
      scaleOnly(config);
      return;
    }
    try (Report report = new Report(config.out); Fixture fixture = Fixture.open(config);
        Variants variants = config.variants ? Variants.open(config) : Variants.none()) {
      List<Driver> drivers = List.of(fixture.library, fixture.threadHop);
      Map<String, String> facts = facts();
      facts.putAll(WarmUp.untilJitQuiet(config, () -> {
        WarmUp.round(config, drivers, s -> true);
        WarmUp.round(config, variants.drivers(), Variants::covers);
      }));
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
      int rounds = Math.max(config.rounds, config.throughputRounds());
      for (int round = 1; round <= rounds; round++) {
        runRound(config, round, rotated(contenders, round - 1), report);
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

  /** {@code --scale-only true}: the scale benchmark alone (./dev bench --scale-only). */
  private static void scaleOnly(BenchConfig config) throws Exception {
    try (Report report = new Report(config.out); Fixture fixture = Fixture.open(config)) {
      report.facts(facts());
      ScaleBench.run(fixture.vertx, config, report);
    }
  }

  private static void runRound(BenchConfig config, int round, List<Contender> contenders,
      Report report) throws Exception {
    long t0 = System.nanoTime();
    for (Scenario s : Scenario.all()) {
      if (!config.measures(s, round)) {
        continue;
      }
      for (Contender c : contenders) {
        if (c.covers(s)) {
          c.run(s, round, report);
        }
      }
    }
    System.err.printf(Locale.ROOT, "bench: round %d done in %.1f s%n", round,
        (System.nanoTime() - t0) / 1e9);
  }

  static <T> List<T> rotated(List<T> list, int by) {
    List<T> r = new ArrayList<>(list);
    Collections.rotate(r, -(by % Math.max(1, list.size())));
    return r;
  }

  /** Versions and settings, for the table: read at run time, never written down by hand. */
  static Map<String, String> facts() throws IOException {
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
