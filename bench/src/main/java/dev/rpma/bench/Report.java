package dev.rpma.bench;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;

/**
 * The raw results: one JSON object per line, with the field names the C reference writes
 * (bench/c/rpma_bench.c), to a file or stdout; a readable line per scenario on stderr.
 */
final class Report implements AutoCloseable {

  private final PrintWriter out;
  private final boolean ownsStream;

  Report(String file) {
    ownsStream = file != null;
    try {
      out = file == null ? new PrintWriter(System.out, true)
          : new PrintWriter(new FileWriter(file, true), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file, e);
    }
  }

  void run(String impl, int round, Scenario scenario, RunResult r, Map<String, Long> extra) {
    String kind = scenario.kind();
    String op = scenario.op().label;
    int size = scenario.size();
    int window = scenario.window();
    Samples s = r.samples();
    long median = s.percentile(0.50);
    long p99 = s.percentile(0.99);
    StringBuilder line = new StringBuilder(256);
    line.append(String.format(Locale.ROOT,
        "{\"impl\":\"%s\",\"round\":%d,\"kind\":\"%s\",\"op\":\"%s\",\"size\":%d,"
            + "\"window\":%d,"
            + "\"ops\":%d,\"completions\":%d,\"samples\":%d,\"elapsed_s\":%.6f,"
            + "\"median_ns\":%d,\"p99_ns\":%d,\"mean_ns\":%.1f,\"ops_per_s\":%.1f,"
            + "\"wakeups\":%d,\"drain_calls\":%d",
        impl, round, kind, op, size, window, r.ops(), r.counters().completions(), s.count(),
        r.elapsedNanos() / 1e9, median, p99, s.mean(), r.opsPerSecond(),
        r.counters().wakeups(), r.counters().drainCalls()));
    line.append(String.format(Locale.ROOT, ",\"jit_ms\":%d,\"gc_count\":%d,\"gc_ms\":%d",
        r.jvm().jitMillis(), r.jvm().gcCount(), r.jvm().gcMillis()));
    // the C reference writes thread_cpu_ns (its polling thread) and process_cpu_ns too
    line.append(String.format(Locale.ROOT,
        ",\"loop_cpu_ns\":%d,\"thread_cpu_ns\":%d,\"process_cpu_ns\":%d",
        r.cpu().loopNanos(), r.cpu().designNanos(), r.cpu().processNanos()));
    extra.forEach((k, v) -> line.append(",\"").append(k).append("\":").append(v));
    line.append('}');
    emit(line.toString());
    System.err.printf(Locale.ROOT, "bench: %-10s %-10s %-11s %5d B w%-2d median %8.1f us"
            + "  p99 %8.1f us  %9.0f ops/s  %6.2f compl/drain  %6.2f compl/wakeup"
            + "  jit %d ms  gc %d ms  cpu/op %.1f us (loop %.1f, process %.1f)%n",
        impl, kind, op, size, window, median / 1e3, p99 / 1e3, r.opsPerSecond(),
        ratio(r.counters().completions(), r.counters().drainCalls()),
        ratio(r.counters().completions(), r.counters().wakeups()), r.jvm().jitMillis(),
        r.jvm().gcMillis(), perOpMicros(r.cpu().designNanos(), r.ops()),
        perOpMicros(r.cpu().loopNanos(), r.ops()), perOpMicros(r.cpu().processNanos(), r.ops()));
  }

  /**
   * One phase of the loop probe: how late a signal on the driver's loop was handled, idle
   * ({@code window} 0) or under a window of writes.
   */
  void probe(String impl, int window, Map<String, Long> figures) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "{\"impl\":\"%s\",\"kind\":\"loop-probe\",\"window\":%d,\"period_ms\":%d",
        impl, window, LoopProbe.PERIOD_MS));
    figures.forEach((k, v) -> line.append(",\"").append(k).append("\":").append(v));
    emit(line.append('}').toString());
    System.err.printf(Locale.ROOT, "bench: loop probe %-10s w%-2d: %d handled of %d signals,"
            + " lateness median %.1f us, p99 %.1f us, max %.1f us; gc %d (%d ms), jit %d ms%n",
        impl, window, figures.get("handled"), figures.get("sent"),
        figures.get("median_ns") / 1e3, figures.get("p99_ns") / 1e3,
        figures.get("max_ns") / 1e3, figures.get("gc_count"), figures.get("gc_ms"),
        figures.get("jit_ms"));
  }

  /** One measured run of the scale benchmark (ScaleRun): n connections on one loop. */
  /** One scale run; {@code rnrNaks}: the device's RNR NAKs during it, -1 if not counted. */
  void scale(String impl, int round, ScaleRun.ScaleResult r, long rnrNaks, int tries) {
    emit(String.format(Locale.ROOT,
        "{\"impl\":\"%s\",\"kind\":\"scale\",\"variant\":\"%s\",\"round\":%d,"
            + "\"connections\":%d,\"window\":%d,\"size\":%d,\"completions\":%d,"
            + "\"elapsed_s\":%.6f,\"ops_per_s\":%.1f,\"min_per_connection\":%d,"
            + "\"max_per_connection\":%d,\"loop_cpu_ns\":%d,\"server_loop_cpu_ns\":%d,"
            + "\"process_cpu_ns\":%d,\"jit_ms\":%d,\"gc_count\":%d,\"rnr_naks\":%d,"
            + "\"tries\":%d}",
        impl, r.variant(), round, r.connections(), BenchConfig.SCALE_WINDOW,
        BenchConfig.THROUGHPUT_SIZE, r.completions(), r.elapsedNanos() / 1e9, r.perSecond(),
        r.minPerConnection(), r.maxPerConnection(), r.loopCpuNanos(), r.serverLoopCpuNanos(),
        r.processCpuNanos(), r.jvm().jitMillis(), r.jvm().gcCount(), rnrNaks, tries));
    System.err.printf(Locale.ROOT, "bench: scale %-10s %-5s %3d connections: %9.0f compl/s"
            + " (%7.0f per connection, min %d max %d)  cpu/compl loop %.1f us, process %.1f"
            + " us, rnr naks %d%n", impl, r.variant(), r.connections(), r.perSecond(),
        r.perSecond() / r.connections(), r.minPerConnection(), r.maxPerConnection(),
        perOpMicros(r.loopCpuNanos(), r.completions()),
        perOpMicros(r.processCpuNanos(), r.completions()), rnrNaks);
  }

  /** What {@code connections} connections took, both ends (ScaleFixture.Resources). */
  void resources(int connections, ScaleFixture.Resources r) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "{\"impl\":\"vertx-rpma\",\"kind\":\"scale-resources\",\"connections\":%d",
        connections));
    r.fields().forEach((k, v) -> line.append(",\"").append(k).append("\":").append(v));
    emit(line.append('}').toString());
    System.err.printf(Locale.ROOT, "bench: scale resources, %d connections (both ends): %d"
            + " fds, %d KiB native, %d KiB pinned%n", connections, r.rdmaFds(), r.nonHeapKib(),
        r.pinnedKib());
  }

  /** A result line made elsewhere (the C reference), as it is. */
  void raw(String jsonLine) {
    emit(jsonLine);
  }

  /** A line of facts about the run (versions, settings), as "key": "string value". */
  void facts(Map<String, String> facts) {
    StringBuilder line = new StringBuilder("{\"kind\":\"env\"");
    facts.forEach((k, v) -> line.append(",\"").append(k).append("\":\"")
        .append(v.replace("\\", "\\\\").replace("\"", "\\\"")).append('"'));
    emit(line.append('}').toString());
  }

  private void emit(String line) {
    out.println(line);
    if (out.checkError()) {
      throw new UncheckedIOException(new IOException("writing the results failed"));
    }
  }

  /** CPU microseconds per operation; NaN when the figure is unknown (-1). */
  private static double perOpMicros(long nanos, long ops) {
    return nanos < 0 || ops <= 0 ? Double.NaN : nanos / 1e3 / ops;
  }

  private static double ratio(long a, long b) {
    return b == 0 ? 0 : (double) a / b;
  }

  @Override
  public void close() {
    if (ownsStream) {
      out.close(); // never System.out: it outlives us
    } else {
      out.flush();
    }
  }
}
