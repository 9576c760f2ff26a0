package dev.rpma.bench;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.Locale;

/**
 * How the library's cost grows with the number of connections on one event loop: for each
 * count of {@link BenchConfig#SCALE_CONNECTIONS} and each {@link ScaleRun.Variant}, an
 * unmeasured run, a wait for the JIT, then the measured run, over the rounds; the counts'
 * order rotates from round to round, as the designs' order does in the main benchmark.
 * The C reference's counterpart runs in its own process (CScale).
 */
final class ScaleBench {

  private static final int WARMUP_RUNS_MAX = 8;
  /** Measured runs of one count and variant at most, while compilation fell inside them. */
  private static final int MEASURED_TRIES_MAX = 4;

  private ScaleBench() {
  }

  static void run(Vertx vertx, BenchConfig config, Report report) throws Exception {
    int port = config.port + 50; // between the main server and the C processes' ports
    try (ScaleFixture fixture = ScaleFixture.open(vertx, config.address, port,
        BenchConfig.SCALE_CONNECTIONS, report, false)) {
      rounds(fixture, List.of(ScaleRun.Variant.WRITE, ScaleRun.Variant.SEND), true, config,
          report);
    }
    if (config.scaleOnly) {
      return; // --scale-only: its targets are the writes; the shared queue's runs come after
    }
    // the same clients' sends, to a server whose connections share ONE receive queue
    try (ScaleFixture fixture = ScaleFixture.open(vertx, config.address, port + 1,
        BenchConfig.SCALE_CONNECTIONS, report, true)) {
      rounds(fixture, List.of(ScaleRun.Variant.SEND_SRQ), false, config, report);
    }
  }

  private static void rounds(ScaleFixture fixture, List<ScaleRun.Variant> variants,
      boolean withC, BenchConfig config, Report report) throws Exception {
    Thread serverLoop = fixture.serverLoopThread();
    for (int round = 1; round <= config.scaleRounds(); round++) {
      long t0 = System.nanoTime();
      int counts = BenchConfig.SCALE_CONNECTIONS.size();
      for (int k = 0; k < counts; k++) {
        int n = BenchConfig.SCALE_CONNECTIONS.get((k + round - 1) % counts);
        for (ScaleRun.Variant v : variants) {
          warmUntilJitQuiet(fixture, v, n, config, serverLoop);
          measure(fixture, v, n, round, config, serverLoop, report);
        }
        if (withC && config.cReference != null) {
          CScale.run(config, n, round, report);
        }
      }
      System.err.printf(Locale.ROOT, "bench: scale round %d done in %.1f s%n", round,
          (System.nanoTime() - t0) / 1e9);
    }
  }

  /**
   * The measured run, again (at most {@link #MEASURED_TRIES_MAX} times) while the JIT took
   * more than {@link BenchConfig#JIT_QUIET_SHARE} of it, or, writes, its loop was on the CPU
   * less than {@link BenchConfig#SCALE_ON_CPU_MIN} of it (something else in the guest ran):
   * a quiet warm-up did not keep 17 ms of compilation out of a 600 ms run at 8 connections,
   * which took 1.6 % from it in one of two counted runs; and in a scale-only boot 213 ms of
   * it stayed in all three tries at one connection, so a try that fails warms up again first.
   * Only the run that counts is reported; its {@code tries} says how many ran (report_scale.py
   * leaves a run with the JIT inside out of the mean when another round has none).
   */
  private static void measure(ScaleFixture fixture, ScaleRun.Variant v, int n, int round,
      BenchConfig config, Thread serverLoop, Report report) throws InterruptedException {
    for (int tries = 1; ; tries++) {
      Jit.settle();
      long rnrBefore = fixture.rnrNaks();
      ScaleRun.ScaleResult r = Fixture.await(ScaleRun.run(fixture, v, n,
          config.scaleMs * 1_000_000, serverLoop));
      // writes only: in a send run the server's loop takes half the CPU by design
      boolean onCpu = v != ScaleRun.Variant.WRITE
          || BenchConfig.heldTheCpu(r.loopCpuNanos(), r.elapsedNanos());
      if ((jitQuiet(r) && onCpu) || tries == MEASURED_TRIES_MAX) {
        report.scale("vertx-rpma", round, r, rnrBefore < 0 ? -1 : fixture.rnrNaks() - rnrBefore,
            tries);
        return;
      }
      System.err.printf(Locale.ROOT, "bench: scale %s at %d connections: %d ms of JIT inside"
          + " the measured run, its loop on the CPU %.1f %% of it; warming up and measuring"
          + " again%n", v.label, n, r.jvm().jitMillis(),
          100.0 * r.loopCpuNanos() / r.elapsedNanos());
      warmUntilJitQuiet(fixture, v, n, config, serverLoop);
    }
  }

  /**
   * Unmeasured runs of {@code n} connections, each as long as the measured run (shorter ones
   * left methods short of C2's thresholds: 120-438 ms of JIT inside a measured run at one
   * connection), until two in a row ran with the JIT at most
   * {@link BenchConfig#JIT_QUIET_SHARE} of their time (at most {@link #WARMUP_RUNS_MAX}; one
   * quiet run was followed by 41-105 ms of JIT inside the measured one), each followed by an
   * empty compile queue. One unmeasured run was not enough: a new count or variant reached
   * code the earlier ones had not, and its compilation (300-450 ms) fell into the 600 ms
   * measured run, which moved the scale targets 15-22 % between two counted runs.
   */
  private static void warmUntilJitQuiet(ScaleFixture fixture, ScaleRun.Variant v, int n,
      BenchConfig config, Thread serverLoop) throws InterruptedException {
    int quietInARow = 0;
    for (int run = 1; run <= WARMUP_RUNS_MAX; run++) {
      ScaleRun.ScaleResult warm = Fixture.await(ScaleRun.run(fixture, v, n,
          Math.max(config.scaleWarmupMs, config.scaleMs) * 1_000_000, serverLoop));
      Jit.awaitIdleOrWarn();
      quietInARow = jitQuiet(warm) ? quietInARow + 1 : 0;
      if (quietInARow == 2) {
        return;
      }
    }
    System.err.printf(Locale.ROOT, "bench: warning: scale %s at %d connections: the JIT was"
        + " still busy after %d unmeasured runs%n", v.label, n, WARMUP_RUNS_MAX);
  }

  /** Whether the JIT took at most {@link BenchConfig#JIT_QUIET_SHARE} of the run's time. */
  private static boolean jitQuiet(ScaleRun.ScaleResult r) {
    return r.jvm().jitMillis() <= BenchConfig.JIT_QUIET_SHARE * r.elapsedNanos() / 1e6;
  }
}
