package dev.rpma.examples;

/** The persistent log's report: a few aligned lines, or one line saying what failed. */
final class LogReport {

  private LogReport() {
  }

  static String of(LogSettings s, String clientStyle, String device, String file,
      ClientReport client, LogVerification v) {
    Measurement m = client.measurement();
    StringBuilder out = new StringBuilder();
    out.append("persistent log: ").append(v.allVerified() ? "PASSED" : "FAILED").append('\n');
    line(out, "device", device + " at " + s.address() + ":" + s.port()
        + ", server and client verticles in one JVM");
    line(out, "client", clientStyle + ", window " + s.window()
        + " (each append: write + flush PERSISTENT)");
    line(out, "log file", file + " (" + s.fileSize() + " bytes, mapped READ_WRITE)");
    line(out, "appended", m.operations() + " records of " + s.recordSize() + " B in "
        + String.format("%.2f s", m.seconds()));
    line(out, "verified", v.verified() + " of " + v.expected()
        + " records (CRC32, sequence, length)");
    for (String problem : v.problems()) {
      line(out, "", problem);
    }
    line(out, "throughput", String.format("%.0f records/s, %.2f MB/s", m.perSecond(),
        m.perSecond() * s.recordSize() / 1e6));
    line(out, "latency", Latencies.summary(m.latencies()));
    line(out, "completions", Latencies.statsSummary(client.stats()));
    return out.toString();
  }

  static String failed(String what) {
    return "persistent log: FAILED: " + what;
  }

  private static void line(StringBuilder out, String label, String text) {
    out.append(String.format("  %-12s %s%n", label, text));
  }
}
