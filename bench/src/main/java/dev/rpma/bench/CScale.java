package dev.rpma.bench;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The C reference of the scale benchmark (bench/c/bench_scale.c): librpma directly, n
 * connections in one process, every CQ fd in one epoll set served by one thread (the library's
 * sequence: on readiness one rpma_cq_wait, then rpma_cq_get_wc in batches), each connection
 * keeping the same window of 64 B writes. A process per count, run right after the library's
 * runs of the same count; its line goes to the report with its {@code tries}.
 */
final class CScale {

  /** Above the main benchmark's C processes (port + 100, one per run): one port per process. */
  private static final AtomicInteger NEXT_PORT_OFFSET = new AtomicInteger(400);

  /**
   * Runs of one count at most, while the process was on the CPU less than
   * {@link BenchConfig#SCALE_ON_CPU_MIN} of the run (something else in the guest took the
   * rest), as the library's measured runs are tried again (ScaleBench).
   */
  private static final int TRIES_MAX = 4;

  private CScale() {
  }

  static void run(BenchConfig config, int connections, int round, Report report)
      throws Exception {
    List<String> cmd = List.of(config.cReference, "--addr", config.address,
        "--port", String.valueOf(config.port + NEXT_PORT_OFFSET.getAndIncrement()),
        "--round", String.valueOf(round), "--kind", "scale",
        "--connections", String.valueOf(connections),
        "--window", String.valueOf(BenchConfig.SCALE_WINDOW),
        "--tput-warmup-ms", String.valueOf(config.scaleWarmupMs),
        "--tput-ms", String.valueOf(config.scaleMs));
    for (int tries = 1; ; tries++) {
      Jit.awaitIdleOrWarn(); // nothing of the JVM's compiling beside the C process
      JsonObject line = new JsonObject(CReference.resultLine(cmd));
      long cpu = line.getLong("process_cpu_ns");
      long elapsed = (long) (line.getDouble("elapsed_s") * 1e9);
      if (BenchConfig.heldTheCpu(cpu, elapsed) || tries == TRIES_MAX) {
        report.raw(line.put("tries", tries).encode());
        return;
      }
      System.err.printf(Locale.ROOT, "bench: scale c-librpma-epoll at %d connections: the"
          + " process on the CPU %.1f %% of the run; measuring again%n", connections,
          100.0 * cpu / elapsed);
    }
  }
}
