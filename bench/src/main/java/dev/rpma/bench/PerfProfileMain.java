package dev.rpma.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the guest instructions of an operation go, library beside C ({@code ./dev bench
 * --perf}, scripts/bench-perf.sh): {@code perf record} of the whole counted guest on its
 * software clock, which in counted time ticks per guest instruction, so a sample is a fixed
 * number of instructions, wherever they ran (the JVM, librpma, the kernel, Soft-RoCE). Unlike
 * JFR's sampler, perf's is the guest kernel's timer interrupt: it takes no CPU from the loop it
 * samples beyond the interrupt itself, so it works on the one vCPU the scored pass has.
 *
 * <p>The library (BenchMain's fixture), warmed up until the JIT is quiet, then per scenario one
 * recording switched on for exactly the measured run; the C reference of the same scenario is
 * recorded twice as a whole process, with {@code ops} and {@code 2 * ops} operations: the
 * difference is its measured operations alone (set-up and warm-up cancel out). Writes
 * {@code DIR/NAME.data} and {@code DIR/runs.tsv} (name, operations, how the figure is taken);
 * bench/perf_rooms.py sorts the samples into rooms.
 *
 * <pre>  PerfProfileMain [BenchConfig's options] --perf-dir DIR --period NS</pre>
 */
public final class PerfProfileMain {

  /** The loop idle before each warm-up round, as it is while the C reference runs. */
  private static final long IDLE_PAUSE_MS = 2000;

  static final List<Scenario> SCENARIOS = List.of(Scenario.latency(Op.READ, 64),
      Scenario.latency(Op.WRITE, 64), Scenario.throughput(64));

  private PerfProfileMain() {
  }

  /** Exits 0 when every scenario was recorded, 1 otherwise. */
  public static void main(String[] args) {
    int status = 1;
    try {
      List<String> rest = new ArrayList<>(List.of(args));
      Path dir = Path.of(take(rest, "--perf-dir"));
      long period = Long.parseLong(take(rest, "--period"));
      List<String> cases = rest.contains("--perf-cases")
          ? List.of(take(rest, "--perf-cases").split(",")) : List.of("main");
      long runMs = rest.contains("--run-ms") ? Long.parseLong(take(rest, "--run-ms")) : 1200;
      record(BenchConfig.parse(rest.toArray(new String[0])), dir, period, cases, runMs);
      status = 0;
    } catch (Throwable t) {
      System.err.print("bench: perf profile failed: ");
      t.printStackTrace();
    } finally {
      System.exit(status);
    }
  }

  private static String take(List<String> args, String option) {
    int at = args.indexOf(option);
    if (at < 0 || at + 1 >= args.size()) {
      throw new IllegalArgumentException("usage: PerfProfileMain [BenchMain's options]"
          + " --perf-dir DIR --period NS (missing " + option + ")");
    }
    String value = args.get(at + 1);
    args.subList(at, at + 2).clear();
    return value;
  }

  private static void record(BenchConfig config, Path dir, long period, List<String> cases,
      long runMs) throws Exception {
    Files.createDirectories(dir);
    try (Fixture fixture = Fixture.open(config);
        PrintStream runs = new PrintStream(dir.resolve("runs.tsv").toFile(), "UTF-8")) {
      PerfCases more = new PerfCases(config, fixture, dir, period, runs, runMs);
      for (String c : cases) {
        switch (c) {
          case "main" -> recordMain(config, fixture, dir, period, runs);
          case "hybrid" -> more.hybrid();
          case "scale" -> more.scale();
          case "channel" -> more.channel();
          default -> throw new IllegalArgumentException("unknown perf case " + c
              + " (main, hybrid, scale, channel)");
        }
      }
    }
  }

  /** 64 B read and write latency and a window of 64 writes, library beside C (event mode). */
  private static void recordMain(BenchConfig config, Fixture fixture, Path dir, long period,
      PrintStream runs) throws Exception {
    List<Driver> drivers = List.of(fixture.library);
    // warm-up rounds as long as the recorded runs, each after an idle pause: with 500
    // operations a round, a quiet JIT still had ConnectionImpl.read short of C2's threshold
    // (compiled inside the recorded read: 29,000 instructions per read), and the loop's
    // first idle wait while the C reference ran deoptimized its compiled path (recompiled
    // inside the next recording) (-XX:+PrintCompilation)
    config.warmupRoundOps = Math.max(config.warmupRoundOps, config.latencyOps);
    WarmUp.untilJitQuiet(config, () -> {
      idle(IDLE_PAUSE_MS);
      WarmUp.round(config, drivers, SCENARIOS::contains);
    });
    int port = config.port + 100;
    for (Scenario s : SCENARIOS) {
      String name = s.toString().replace(' ', '-');
      long ops = library(config, fixture.library, s, dir.resolve("lib-" + name + ".data"),
          period);
      runs.printf(Locale.ROOT, "lib-%s\t%d\twindow\tvertx-rpma%n", name, ops);
      if (config.cReference != null) {
        for (int times = 1; times <= 2; times++) {
          long cOps = cReference(config, s, "blocking", times, port++,
              dir.resolve("c-" + name + "-x" + times + ".data"), period);
          runs.printf(Locale.ROOT, "c-%s-x%d\t%d\twhole\tC librpma (event)%n", name,
              times, cOps);
        }
      }
      System.err.printf(Locale.ROOT, "bench: perf recorded %s: %d operations%n", s, ops);
    }
  }

  static void idle(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One measured run of the library, recorded from its first post to its last completion. */
  static long library(BenchConfig config, Driver d, Scenario s, Path data, long period)
      throws IOException, InterruptedException {
    return recorded(data, period, () -> Fixture.await(s.isLatency()
        ? LatencyRun.run(d, s.op(), s.size(), config.latencyOps)
        : ThroughputRun.run(d, s.window(), s.size(), config.throughputNanos())).ops());
  }

  /** A measured run in this JVM, returning its operations. */
  interface MeasuredRun {
    long run() throws IOException, InterruptedException;
  }

  /** {@code run} under a recording switched on for exactly its length. */
  static long recorded(Path data, long period, MeasuredRun run)
      throws IOException, InterruptedException {
    try (PerfRecording perf = PerfRecording.start(data, period)) {
      // starting perf (processes, fifos) loads classes that invalidate compiled code: the
      // loop's, the engine's and Vert.x's methods were made not entrant at once right after
      // it, and recompiled inside the recording (C2 at 6,700 instructions per channel message;
      // the hybrid read's recording alike). One run unrecorded lets that happen first; then
      // the compilations it queued must finish before the recording starts (they did not:
      // 25,000 instructions of C2 per 64 B read)
      run.run();
      Jit.awaitIdleOrWarn();
      perf.enable();
      long ops = run.run();
      perf.disable();
      return ops;
    }
  }

  /**
   * The C reference (event mode) of {@code s}, {@code times} the configured operations (or
   * duration), recorded as a whole process; returns the operations it reports.
   */
  static long cReference(BenchConfig config, Scenario s, String mode, int times, int port,
      Path data, long period) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(config.cReference, "--addr", config.address,
        "--port", String.valueOf(port), "--round", "0", "--mode", mode,
        "--kind", s.kind()));
    if (s.isLatency()) {
      cmd.addAll(List.of("--op", s.op().label, "--size", String.valueOf(s.size()),
          "--lat-warmup", String.valueOf(config.latencyWarmup),
          "--lat-ops", String.valueOf(times * config.latencyOps)));
    } else {
      cmd.addAll(List.of("--window", String.valueOf(s.window()),
          "--tput-warmup-ms", String.valueOf(config.throughputWarmupMs),
          "--tput-ms", String.valueOf(times * config.throughputMs)));
    }
    return cWhole(cmd, s.isLatency() ? "ops" : "completions", data, period);
  }

  /** A C process recorded as a whole; returns the count {@code field} of its line. */
  static long cWhole(List<String> cmd, String field, Path data, long period)
      throws IOException, InterruptedException {
    String line;
    try (PerfRecording perf = PerfRecording.start(data, period)) {
      Jit.awaitIdleOrWarn();
      perf.enable();
      line = CReference.resultLine(cmd);
      perf.disable();
    }
    return countOf(line, field);
  }

  /** A count field ("ops", "completions") of the C reference's JSON line. */
  private static long countOf(String json, String field) {
    String key = "\"" + field + "\":";
    int at = json.indexOf(key);
    if (at < 0) {
      throw new IllegalStateException("no " + field + " in the C reference's line: " + json);
    }
    int start = at + key.length();
    int end = start;
    while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == ' ')) {
      end++;
    }
    return Long.parseLong(json.substring(start, end).trim());
  }
}
