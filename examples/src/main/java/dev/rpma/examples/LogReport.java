package dev.rpma.examples;

/** The persistent log's report: a few aligned lines, or one line saying what failed. */
final class LogReport {

  /** An append is a write and a flush, each with its completion. */
  private static final int COMPLETIONS_PER_RECORD = 2;

  private LogReport() {
  }

  static String of(LogSettings s, String clientStyle, String device, String file,
      ClientReport client, LogVerification v) {
    StringBuilder out = new StringBuilder();
    out.append("persistent log: ").append(passed(client, v) ? "PASSED" : "FAILED").append('\n');
    line(out, "device", device + " at " + s.address() + ":" + s.port()
        + ", server and client verticles in one JVM");
    clientLines(out, s, clientStyle, client);
    verificationLines(out, s, file, v);
    return out.toString();
  }

  /** The server's side across hosts: what it found in the file its client wrote. */
  static String ofServer(LogSettings s, String device, String file, LogVerification v) {
    StringBuilder out = new StringBuilder();
    out.append("persistent log server: ").append(v.allVerified() ? "PASSED" : "FAILED")
        .append('\n');
    line(out, "device", device + " at " + s.address() + ":" + s.port()
        + ", its client on another host");
    verificationLines(out, s, file, v);
    return out.toString();
  }

  /** The client's side across hosts: what it appended (the server verifies). */
  static String ofClient(LogSettings s, String clientStyle, ClientReport client) {
    StringBuilder out = new StringBuilder();
    out.append("persistent log client: APPENDED\n");
    line(out, "server", s.serverAddress() + ":" + s.port() + ", from " + s.address());
    clientLines(out, s, clientStyle, client);
    return out.toString();
  }

  private static void clientLines(StringBuilder out, LogSettings s, String clientStyle,
      ClientReport client) {
    Measurement m = client.measurement();
    line(out, "client", clientStyle + ", window " + s.window()
        + " (each append: write + flush PERSISTENT)");
    line(out, "appended", m.operations() + " records of " + s.recordSize() + " B in "
        + String.format("%.2f s", m.seconds()));
    line(out, "throughput", String.format("%.0f records/s, %.2f MB/s", m.perSecond(),
        m.perSecond() * s.recordSize() / 1e6));
    line(out, "latency", Latencies.summary(m.latencies()));
    line(out, "completions", Latencies.statsSummary(client.stats()));
    if (!client.completionsMatch(COMPLETIONS_PER_RECORD)) {
      line(out, "", "expected " + COMPLETIONS_PER_RECORD * m.operations() + " completions ("
          + COMPLETIONS_PER_RECORD + " per record) besides "
          + client.stats().keepAliveProbes() + " keepalive probes");
    }
  }

  /**
   * Whether the run passed: every record verified in the file, and the client's connection
   * counted each record's two completions (the write's and the flush's), so that the report's
   * completion figures are the run's.
   */
  static boolean passed(ClientReport client, LogVerification v) {
    return v.allVerified() && client.completionsMatch(COMPLETIONS_PER_RECORD);
  }

  private static void verificationLines(StringBuilder out, LogSettings s, String file,
      LogVerification v) {
    line(out, "log file", file + " (" + s.fileSize() + " bytes, mapped and registered whole by"
        + " the library; records from offset " + s.offsetOf(0) + ")");
    line(out, "verified", v.verified() + " of " + v.expected()
        + " records (CRC32, sequence, length)");
    for (String problem : v.problems()) {
      line(out, "", problem);
    }
  }

  static String failed(String what) {
    return "persistent log: FAILED: " + what;
  }

  private static void line(StringBuilder out, String label, String text) {
    out.append(String.format("  %-12s %s%n", label, text));
  }
}
