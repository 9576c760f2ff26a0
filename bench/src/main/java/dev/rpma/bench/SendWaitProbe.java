package dev.rpma.bench;

import dev.rpma.vertx.CompletionStats;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Issue 27's lead, reproduced alone: sends at one connection, a window of
 * {@link BenchConfig#SCALE_WINDOW}, to a server keeping N receives posted on the connection's
 * own receive queue, for each N given (--receives 16,64,120). Per N: sends per second and the
 * device's hw counters that moved during the measured run (rxe: rcvd_rnr_err counts the
 * receiver-not-ready NAKs the sender got, each one a wait for the RNR timer). Run it in
 * counted time ({@code ./dev rdma --icount}), where the guest's clock jumps over idle time to
 * the next timer: a wait for a timer then shows as exactly that timer's period.
 *
 * <p>{@code --connections N} connects N (as the scale bench's 256) and sends on the first;
 * {@code --runs K} measures K runs, each with what the server's loop did meanwhile (schedstat:
 * on the CPU, waiting on the run queue) and the first server side's wakeups and completions;
 * {@code --trace FILE} records the kernel's scheduler events of the last run (root, a writable
 * FILE: {@code --rw}); {@code --server-nice N} renices the server's loop first. Session 15's
 * reading of the one-connection send run (bench/ANALYSIS.md) is from these.
 */
final class SendWaitProbe {

  private SendWaitProbe() {
  }

  public static void main(String[] args) throws Exception {
    String ip = System.getenv("RPMA_TEST_IP");
    String device = "rxe0";
    int port = 7995;
    long ms = 2000;
    List<Integer> receives = List.of(ScaleFixture.RECEIVES_POSTED);
    int connections = 1;
    int runs = 1;
    int serverNice = 0;
    Path trace = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--addr" -> ip = args[i + 1];
        case "--device" -> device = args[i + 1];
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--ms" -> ms = Long.parseLong(args[i + 1]);
        case "--receives" -> receives = Stream.of(args[i + 1].split(","))
            .map(Integer::valueOf).toList();
        case "--connections" -> connections = Integer.parseInt(args[i + 1]);
        case "--runs" -> runs = Integer.parseInt(args[i + 1]);
        case "--server-nice" -> serverNice = Integer.parseInt(args[i + 1]);
        case "--trace" -> trace = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Vertx vertx = Fixture.nativeVertx();
    try (Report report = new Report(null)) {
      for (int n : receives) {
        try (ScaleFixture f = ScaleFixture.open(vertx, ip, port++, List.of(connections), report,
            false, n)) {
          Thread serverLoop = f.serverLoopThread();
          String serverTid = onServerLoop(f,
              () -> Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName()
                  .toString());
          Path serverSched = Path.of("/proc/self/task", serverTid, "schedstat");
          if (serverNice != 0) { // the scheduler's hypothesis tested: the server loop first
            int rc = new ProcessBuilder("renice", "-n", String.valueOf(serverNice), "-p",
                serverTid).inheritIO().start().waitFor();
            System.out.printf(Locale.ROOT, "send-wait server loop %s reniced by %d: rc %d%n",
                serverTid, serverNice, rc);
          }
          Fixture.await(ScaleRun.run(f, ScaleRun.Variant.SEND, 1, ms / 4 * 1_000_000,
              serverLoop));
          for (int run = 1; run <= runs; run++) {
            boolean traced = trace != null && run == runs;
            if (traced) {
              SchedTrace.start();
            }
            measure(f, device, n, connections, run, ms, serverLoop, serverSched);
            if (traced) {
              SchedTrace.stopInto(trace);
            }
          }
        }
      }
    } finally {
      Fixture.await(vertx.close());
    }
  }

  /**
   * One measured run at one connection: the sends, the device's counters that moved, and what
   * the server's loop did meanwhile: its time on the CPU and waiting for it on a run queue
   * (schedstat), and the first server side's wakeups and completions (its CompletionStats).
   * A loop that waited for the CPU is starved; one that neither ran nor waited slept.
   */
  private static void measure(ScaleFixture f, String device, int receivesPosted,
      int connections, int run, long ms, Thread serverLoop, Path serverSched) throws Exception {
    Map<String, Long> before = counters(device);
    SchedStat schedBefore = SchedStat.of(serverSched);
    CompletionStats statsBefore = onServerLoop(f, () -> f.serverSide(0).stats());
    ScaleRun.ScaleResult r = Fixture.await(ScaleRun.run(f, ScaleRun.Variant.SEND, 1,
        ms * 1_000_000, serverLoop));
    CompletionStats statsAfter = onServerLoop(f, () -> f.serverSide(0).stats());
    SchedStat schedAfter = SchedStat.of(serverSched);
    Map<String, Long> moved = new TreeMap<>();
    counters(device).forEach((k, v) -> {
      long d = v - before.getOrDefault(k, 0L);
      if (d != 0) {
        moved.put(k, d);
      }
    });
    long rnr = moved.getOrDefault("rcvd_rnr_err", 0L);
    System.out.printf(Locale.ROOT, "send-wait connections=%d run=%d receives_posted=%d sends=%d"
        + " elapsed_ms=%.1f sends_per_s=%.1f client_loop_cpu_ms=%.1f server_loop_cpu_ms=%.1f"
        + " server_loop_run_ms=%.1f server_loop_runqueue_wait_ms=%.1f server_loop_slices=%d"
        + " server_side_wakeups=%d server_side_completions=%d rnr_naks=%d"
        + " idle_ms_per_rnr=%.1f counters=%s%n", connections, run, receivesPosted,
        r.completions(), r.elapsedNanos() / 1e6, r.perSecond(), r.loopCpuNanos() / 1e6,
        r.serverLoopCpuNanos() / 1e6, (schedAfter.runNanos() - schedBefore.runNanos()) / 1e6,
        (schedAfter.waitNanos() - schedBefore.waitNanos()) / 1e6,
        schedAfter.slices() - schedBefore.slices(),
        statsAfter.wakeups() - statsBefore.wakeups(),
        statsAfter.completions() - statsBefore.completions(), rnr, rnr == 0 ? 0.0
            : (r.elapsedNanos() - r.loopCpuNanos() - r.serverLoopCpuNanos()) / 1e6 / rnr,
        moved);
  }

  private interface OnLoop<T> {
    T get() throws Exception;
  }

  /** {@code what}, read on the server's loop. */
  private static <T> T onServerLoop(ScaleFixture f, OnLoop<T> what) {
    Promise<T> p = Promise.promise();
    f.serverLoop.runOnContext(v -> {
      try {
        p.complete(what.get());
      } catch (Exception e) {
        p.fail(e);
      }
    });
    return Fixture.await(p.future());
  }

  /** Every hw counter of the device's port 1, by name. */
  static Map<String, Long> counters(String device) {
    Path dir = Path.of("/sys/class/infiniband", device, "ports/1/hw_counters");
    Map<String, Long> values = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        values.put(f.getFileName().toString(), Long.parseLong(Files.readString(f).trim()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the device's counters in " + dir, e);
    }
    return values;
  }
}
