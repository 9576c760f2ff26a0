package dev.rpma.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The perf profile's cases beyond the main one ({@code ./dev bench --perf --cases ...}), each a
 * missed bound of issue 27 with its reference: hybrid polling's 64 B read and write against C
 * busy-polling; 64 B writes at window 8 on one loop at 1 and 8 connections against C epoll
 * (bench_scale.c); the message channel's one-way messages against send/recv posted by hand.
 * Each warms up with runs as long as the recorded ones until the JIT is quiet, then records
 * the library's run alone (PerfProfileMain#recorded). A C reference is recorded as a whole
 * process twice (x1, x2: the difference is its measured part); the hand-posted pair, in this
 * JVM, like the library.
 */
final class PerfCases {

  private final BenchConfig config;
  private final Fixture fixture;
  private final Path dir;
  private final long period;
  private final PrintStream runs;
  private final long runNanos;
  private int nextPort;

  PerfCases(BenchConfig config, Fixture fixture, Path dir, long period, PrintStream runs,
      long runMs) {
    this.config = config;
    this.fixture = fixture;
    this.dir = dir;
    this.period = period;
    this.runs = runs;
    this.runNanos = runMs * 1_000_000;
    this.nextPort = config.port + 200;
  }

  /** Hybrid polling (the library spinning up to 500 us) beside C polling without events. */
  void hybrid() throws Exception {
    List<Scenario> scenarios = List.of(Scenario.latency(Op.READ, 64),
        Scenario.latency(Op.WRITE, 64));
    try (Variants hybrid = Variants.hybridOnly(config)) {
      List<Driver> drivers = hybrid.drivers();
      config.warmupRoundOps = Math.max(config.warmupRoundOps, config.latencyOps);
      WarmUp.untilJitQuiet(config, () -> {
        PerfProfileMain.idle(2000);
        WarmUp.round(config, drivers, scenarios::contains);
      });
      for (Scenario s : scenarios) {
        String name = "hybrid-" + s.toString().replace(' ', '-');
        // the same run once more, unrecorded, right before the recording: after a quiet
        // warm-up, 8,000-16,000 instructions of C2 per operation fell inside the first
        // recordings of the hybrid case (the spin loop's code compiled anew)
        Fixture.await(LatencyRun.run(drivers.get(0), s.op(), s.size(), config.latencyOps));
        Jit.awaitIdleOrWarn();
        long ops = PerfProfileMain.library(config, drivers.get(0), s,
            dir.resolve("lib-" + name + ".data"), period);
        line("lib-" + name, ops, "window", "vertx-rpma hybrid");
        for (int times = 1; times <= 2; times++) {
          long c = PerfProfileMain.cReference(config, s, "busy", times, nextPort++,
              dir.resolve("c-" + name + "-x" + times + ".data"), period);
          line("c-" + name + "-x" + times, c, "whole", "C librpma (busy poll)");
        }
        done(name, ops);
      }
    }
  }

  /** Window-8 writes of n connections on one loop, against bench_scale.c's one epoll set. */
  void scale() throws Exception {
    List<Integer> counts = List.of(1, 8);
    try (Report quiet = new Report(dir.resolve("scale-resources.jsonl").toString());
        ScaleFixture f = ScaleFixture.open(fixture.vertx, config.address, config.port + 60,
            counts, quiet, false)) {
      Thread serverLoop = f.serverLoopThread();
      WarmUp.untilJitQuiet(config, () -> {
        for (int n : counts) {
          Fixture.await(ScaleRun.run(f, ScaleRun.Variant.WRITE, n, runNanos, serverLoop));
        }
      });
      for (int n : counts) {
        String name = "scale-write-" + n + "-connections";
        long ops = PerfProfileMain.recorded(dir.resolve("lib-" + name + ".data"), period,
            () -> Fixture.await(ScaleRun.run(f, ScaleRun.Variant.WRITE, n, runNanos,
                serverLoop)).completions());
        line("lib-" + name, ops, "window", "vertx-rpma");
        for (int times = 1; times <= 2; times++) {
          List<String> cmd = List.of(config.cReference, "--addr", config.address,
              "--port", String.valueOf(nextPort++), "--round", "0", "--kind", "scale",
              "--connections", String.valueOf(n),
              "--window", String.valueOf(BenchConfig.SCALE_WINDOW),
              "--tput-warmup-ms", String.valueOf(config.scaleWarmupMs),
              "--tput-ms", String.valueOf(times * runNanos / 1_000_000));
          long c = PerfProfileMain.cWhole(cmd, "completions",
              dir.resolve("c-" + name + "-x" + times + ".data"), period);
          line("c-" + name + "-x" + times, c, "whole", "C epoll (bench_scale.c)");
        }
        done(name, ops);
      }
    }
  }

  /** One-way 64 B messages, a window of 16: the message channel and hand-posted send/recv. */
  void channel() throws Exception {
    BenchConfig ports = BenchConfig.parse(new String[] {"--addr", config.address,
        "--port", String.valueOf(config.port + 20)});
    try (ChannelBenchMain.Peers peers = new ChannelBenchMain.Peers(fixture.vertx,
        config.address)) {
      List<MessagePath> paths = peers.paths(ports);
      MessagePath channel = paths.get(0);
      WarmUp.untilJitQuiet(config, () -> {
        for (MessagePath p : paths) {
          Fixture.await(MessageRuns.oneWay(p, ChannelBenchMain.WINDOW, runNanos));
        }
      });
      for (MessagePath p : paths) {
        String name = (p == channel ? "lib-" : "ref-") + "channel-one-way";
        long ops = PerfProfileMain.recorded(dir.resolve(name + ".data"), period,
            () -> Fixture.await(MessageRuns.oneWay(p, ChannelBenchMain.WINDOW, runNanos))
                .messages());
        line(name, ops, "window", p == channel ? "message channel" : "hand-posted send/recv");
        done(name, ops);
      }
      for (MessagePath p : paths) {
        Fixture.await(p.close());
      }
    }
  }

  private void line(String name, long ops, String how, String label) {
    runs.printf(Locale.ROOT, "%s\t%d\t%s\t%s%n", name, ops, how, label);
    runs.flush();
  }

  private static void done(String name, long ops) {
    System.err.printf(Locale.ROOT, "bench: perf recorded %s: %d operations%n", name, ops);
  }
}
