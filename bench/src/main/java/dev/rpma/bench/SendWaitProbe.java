package dev.rpma.bench;

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
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--addr" -> ip = args[i + 1];
        case "--device" -> device = args[i + 1];
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--ms" -> ms = Long.parseLong(args[i + 1]);
        case "--receives" -> receives = Stream.of(args[i + 1].split(","))
            .map(Integer::valueOf).toList();
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Vertx vertx = Fixture.nativeVertx();
    try (Report report = new Report(null)) {
      for (int n : receives) {
        try (ScaleFixture f = ScaleFixture.open(vertx, ip, port++, List.of(1), report, false,
            n)) {
          Thread serverLoop = f.serverLoopThread();
          Fixture.await(ScaleRun.run(f, ScaleRun.Variant.SEND, 1, ms / 4 * 1_000_000,
              serverLoop));
          Map<String, Long> before = counters(device);
          ScaleRun.ScaleResult r = Fixture.await(ScaleRun.run(f, ScaleRun.Variant.SEND, 1,
              ms * 1_000_000, serverLoop));
          Map<String, Long> moved = new TreeMap<>();
          counters(device).forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
              moved.put(k, d);
            }
          });
          long rnr = moved.getOrDefault("rcvd_rnr_err", 0L);
          System.out.printf(Locale.ROOT, "send-wait receives_posted=%d sends=%d elapsed_ms=%.1f"
              + " sends_per_s=%.1f client_loop_cpu_ms=%.1f server_loop_cpu_ms=%.1f"
              + " rnr_naks=%d idle_ms_per_rnr=%.1f counters=%s%n", n, r.completions(),
              r.elapsedNanos() / 1e6, r.perSecond(), r.loopCpuNanos() / 1e6,
              r.serverLoopCpuNanos() / 1e6, rnr, rnr == 0 ? 0.0
                  : (r.elapsedNanos() - r.loopCpuNanos() - r.serverLoopCpuNanos()) / 1e6 / rnr,
              moved);
        }
      }
    } finally {
      Fixture.await(vertx.close());
    }
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
