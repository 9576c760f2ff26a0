package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import java.util.List;

/**
 * What the benchmark runs and how long: the scenarios and queue sizes are the C reference's
 * (bench/c/rpma_bench.h); keep the two equal. The counts come from the command line.
 */
final class BenchConfig {

  static final int REGION_SIZE = 64 * 1024;
  /** CQ and SQ size: above the largest window, so no operation ever waits for room. */
  static final int QUEUE_SIZE = 128;
  /** Completions per rpma_cq_get_wc in the library: its default, as in the C reference. */
  static final int DRAIN_BATCH = 32;
  /** Address and route resolution on the emulator can take longer than the default 1 s. */
  static final int CONNECT_TIMEOUT_MS = 10_000;

  static final List<Integer> LATENCY_SIZES = List.of(64, 4096);
  static final List<Op> LATENCY_OPS = List.of(Op.READ, Op.WRITE, Op.WRITE_FLUSH);
  static final List<Integer> WINDOWS = List.of(1, 8, 64);
  static final int THROUGHPUT_SIZE = 64;
  /** The scale benchmark: connections on one event loop, each with this window of 64 B ops. */
  static final List<Integer> SCALE_CONNECTIONS = List.of(1, 8, 64, 256);
  static final int SCALE_WINDOW = 8;

  String address;
  int port = 7791;
  String out;
  /** The C reference's binary; without it only the Java designs run. */
  String cReference;
  /** Passes over every scenario; the report takes the median over them. */
  int rounds = 3;
  int latencyWarmup = 2000;
  int latencyOps = 10_000;
  long throughputWarmupMs = 2000;
  long throughputMs = 5000;
  /** Warm-up rounds (every scenario, unmeasured) end when the JIT took at most this share. */
  static final double JIT_QUIET_SHARE = 0.01;
  /**
   * A scale run whose measuring thread (the library's client loop; the C reference's process)
   * was on the CPU less than this share of the run was disturbed by something else in the
   * guest, and is measured again. Undisturbed runs of either design are on it 94.4-95.6 % in
   * counted time; two C runs of one pass were on it 85.6 % and 89.1 %, at the same CPU cost
   * per completion: 36-57 ms of the 600 went elsewhere, and the ratio at 64 connections moved
   * 3 % (bench/ANALYSIS.md, session 15).
   */
  static final double SCALE_ON_CPU_MIN = 0.93;

  /** Whether a scale run's measuring thread held the CPU ({@link #SCALE_ON_CPU_MIN}). */
  static boolean heldTheCpu(long cpuNanos, long elapsedNanos) {
    return cpuNanos >= SCALE_ON_CPU_MIN * elapsedNanos;
  }

  /** Per warm-up round: operations of each latency scenario, ms of each window. */
  int warmupRoundOps = 2000;
  long warmupRoundWindowMs = 500;
  long warmupMaxSeconds = 240;
  /** Length of each phase of the loop probe (LoopProbe); 0 skips it. */
  long probeMs = 2000;
  /** Per scale scenario and round: unmeasured, then measured; 0 skips the scale benchmark. */
  long scaleWarmupMs = 500;
  long scaleMs = 2000;
  /**
   * Rounds of the scale benchmark; 0: {@link #rounds}. report_scale.py takes the mean of their
   * completions per second, the median of the rest.
   */
  int scaleRounds;
  /**
   * Rounds of the throughput scenarios (windows 1, 8, 64); 0: {@link #rounds}. More than the
   * latency scenarios' in {@code --quick}: one 1 s run per window and design moved the ratio
   * at window 64 by 3.3 % between two counted passes (each run lands on one of two levels
   * ~2 % apart: bench/ANALYSIS.md, session 14); the target is the median of the per-round
   * ratios.
   */
  int throughputRounds;
  /** Only the scale benchmark (no warm-up of the main scenarios, no rounds, no probe). */
  boolean scaleOnly;
  /** Whether the library's variants (io_uring, metrics on) are measured too. */
  boolean variants = true;

  int throughputRounds() {
    return throughputRounds > 0 ? throughputRounds : rounds;
  }

  /** Whether round {@code round} measures scenario {@code s}. */
  boolean measures(Scenario s, int round) {
    return round <= (s.isLatency() ? rounds : throughputRounds());
  }

  int scaleRounds() {
    return scaleRounds > 0 ? scaleRounds : rounds;
  }

  long throughputWarmupNanos() {
    return throughputWarmupMs * 1_000_000;
  }

  long throughputNanos() {
    return throughputMs * 1_000_000;
  }

  static ConnectionOptions connectionOptions() {
    return new ConnectionOptions()
        .setCqSize(QUEUE_SIZE)
        .setSqSize(QUEUE_SIZE)
        .setDrainBatch(DRAIN_BATCH)
        .setTimeoutMs(CONNECT_TIMEOUT_MS);
  }

  static BenchConfig parse(String[] args) {
    BenchConfig c = new BenchConfig();
    c.address = System.getenv("RPMA_TEST_IP");
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw usage("missing value after " + name);
      }
      String value = args[++i];
      switch (name) {
        case "--addr" -> c.address = value;
        case "--port" -> c.port = Integer.parseInt(value);
        case "--out" -> c.out = value;
        case "--c-reference" -> c.cReference = value;
        case "--rounds" -> c.rounds = Integer.parseInt(value);
        case "--lat-warmup" -> c.latencyWarmup = Integer.parseInt(value);
        case "--lat-ops" -> c.latencyOps = Integer.parseInt(value);
        case "--tput-warmup-ms" -> c.throughputWarmupMs = Long.parseLong(value);
        case "--tput-ms" -> c.throughputMs = Long.parseLong(value);
        case "--warmup-round-ops" -> c.warmupRoundOps = Integer.parseInt(value);
        case "--warmup-round-window-ms" -> c.warmupRoundWindowMs = Long.parseLong(value);
        case "--warmup-max-s" -> c.warmupMaxSeconds = Long.parseLong(value);
        case "--probe-ms" -> c.probeMs = Long.parseLong(value);
        case "--scale-warmup-ms" -> c.scaleWarmupMs = Long.parseLong(value);
        case "--scale-ms" -> c.scaleMs = Long.parseLong(value);
        case "--variants" -> c.variants = Boolean.parseBoolean(value);
        case "--scale-rounds" -> c.scaleRounds = Integer.parseInt(value);
        case "--tput-rounds" -> c.throughputRounds = Integer.parseInt(value);
        case "--scale-only" -> c.scaleOnly = Boolean.parseBoolean(value);
        default -> throw usage("unknown option " + name);
      }
    }
    if (c.address == null || c.address.isBlank()) {
      throw usage("no address: set RPMA_TEST_IP or pass --addr");
    }
    if (c.latencyOps < 1 || c.throughputMs < 1 || c.rounds < 1) {
      throw usage("--lat-ops, --tput-ms and --rounds must be positive");
    }
    return c;
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(problem + "\nusage: BenchMain [--addr IP] [--port P]"
        + " [--out FILE] [--c-reference PATH] [--rounds N] [--lat-warmup N] [--lat-ops N]"
        + " [--tput-warmup-ms MS] [--tput-ms MS]"
        + " [--warmup-round-ops N] [--warmup-round-window-ms MS] [--warmup-max-s S]"
        + " [--probe-ms MS] [--scale-warmup-ms MS] [--scale-ms MS] [--variants true|false]"
        + " [--scale-rounds N] [--tput-rounds N] [--scale-only true|false]");
  }
}
