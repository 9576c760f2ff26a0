package dev.rpma.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Rounds of every given scenario of every Java design, unmeasured, until the JIT is quiet: a
 * round in which compilation took at most {@link BenchConfig#JIT_QUIET_SHARE} of the round's
 * time. On the emulator a compilation takes its time from the measured code (all guest CPUs
 * share one host thread), and C2 needs tens of seconds there to settle; a fixed count would be
 * a guess. Gives up after {@code warmupMaxSeconds} and says so in the facts it returns.
 */
final class WarmUp {

  private WarmUp() {
  }

  /** Warms up; returns the facts for the report (rounds, seconds, whether the JIT went quiet). */
  static Map<String, String> untilJitQuiet(BenchConfig config, List<Driver> drivers,
      List<Scenario> scenarios) {
    long start = System.nanoTime();
    long deadline = start + config.warmupMaxSeconds * 1_000_000_000L;
    int round = 0;
    boolean quiet = false;
    long lastJit = -1;
    while (!quiet && System.nanoTime() < deadline) {
      round++;
      JvmActivity before = JvmActivity.now();
      long t0 = System.nanoTime();
      round(config, drivers, scenarios);
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

  private static void round(BenchConfig config, List<Driver> drivers, List<Scenario> scenarios) {
    for (Driver d : drivers) {
      for (Scenario s : scenarios) {
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
