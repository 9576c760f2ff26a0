package dev.rpma.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Rounds of unmeasured runs of the Java designs' scenarios until the JIT is quiet: a
 * round in which compilation took at most {@link BenchConfig#JIT_QUIET_SHARE} of the round's
 * time. On the emulator a compilation takes its time from the measured code (all guest CPUs
 * share one host thread), and C2 needs tens of seconds there to settle; a fixed count would be
 * a guess. Gives up after {@code warmupMaxSeconds} and says so in the facts it returns.
 */
final class WarmUp {

  private WarmUp() {
  }

  /**
   * Runs {@code round} (unmeasured runs, e.g. {@link #round}) until the JIT is quiet; returns
   * the facts for the report (rounds, seconds, whether the JIT went quiet).
   */
  static Map<String, String> untilJitQuiet(BenchConfig config, Runnable round) {
    long start = System.nanoTime();
    long deadline = start + config.warmupMaxSeconds * 1_000_000_000L;
    int rounds = 0;
    boolean quiet = false;
    long lastJit = -1;
    while (!quiet && System.nanoTime() < deadline) {
      rounds++;
      JvmActivity before = JvmActivity.now();
      long t0 = System.nanoTime();
      round.run();
      double roundMs = (System.nanoTime() - t0) / 1e6;
      lastJit = JvmActivity.now().since(before).jitMillis();
      quiet = rounds >= 2 && lastJit <= BenchConfig.JIT_QUIET_SHARE * roundMs;
      System.err.printf(Locale.ROOT, "bench: warm-up round %d: %.1f s, JIT %d ms%n", rounds,
          roundMs / 1e3, lastJit);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!quiet) {
      System.err.printf(Locale.ROOT, "bench: warning: the JIT was still busy after %.0f s of"
          + " warm-up; the figures may include compilation%n", seconds);
    }
    Map<String, String> f = new LinkedHashMap<>();
    f.put("warmup_rounds", String.valueOf(rounds));
    f.put("warmup_s", String.format(Locale.ROOT, "%.1f", seconds));
    f.put("warmup_last_round_jit_ms", String.valueOf(lastJit));
    f.put("warmup_jit_quiet", String.valueOf(quiet));
    return f;
  }

  /** One unmeasured run of every scenario of {@link Scenario#all} that {@code scenarios} takes. */
  static void round(BenchConfig config, List<Driver> drivers, Predicate<Scenario> scenarios) {
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
}
