package dev.rpma.examples;

/** The persistent log's report: a few aligned lines, or one line saying what failed. */
final class LogReport {

  private LogReport() {
  }

  static String of(LogSettings s, LogClient logClient, String device, String file,
      ClientReport client, LogVerification v) {
    int perRecord = LogAppender.completionsPerRecord(logClient.durability());
    String clientStyle = logClient.style() + ", " + logClient.durability();
    StringBuilder out = new StringBuilder();
    out.append("persistent log: ").append(passed(client, perRecord, v) ? "PASSED" : "FAILED")
        .append('\n');
    line(out, "device", device + " at " + s.address() + ":" + s.port()
        + ", server and client verticles in one JVM");
    clientLines(out, s, clientStyle, perRecord, client);
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
  static String ofClient(LogSettings s, LogClient logClient, ClientReport client) {
    int perRecord = LogAppender.completionsPerRecord(logClient.durability());
    String clientStyle = logClient.style() + ", " + logClient.durability();
    StringBuilder out = new StringBuilder();
    out.append("persistent log client: APPENDED\n");
    line(out, "server", s.serverAddress() + ":" + s.port() + ", from " + s.address());
    clientLines(out, s, clientStyle, perRecord, client);
    return out.toString();
  }

  private static void clientLines(StringBuilder out, LogSettings s, String clientStyle,
      int perRecord, ClientReport client) {
    Measurement m = client.measurement();
    line(out, "client", clientStyle + ", window " + s.window()
        + " (each append: a write, then durable: " + perRecord + " completions)");
    line(out, "appended", m.operations() + " records of " + s.recordSize() + " B in "
        + String.format("%.2f s", m.seconds()));
    line(out, "throughput", String.format("%.0f records/s, %.2f MB/s", m.perSecond(),
        m.perSecond() * s.recordSize() / 1e6));
    line(out, "latency", Latencies.summary(m.latencies()));
    line(out, "completions", Latencies.statsSummary(client.stats()));
    if (!client.completionsMatch(perRecord)) {
      line(out, "", "expected " + perRecord * m.operations() + " completions ("
          + perRecord + " per record) besides "
          + client.stats().keepAliveProbes() + " keepalive probes");
    }
  }

  /**
   * Whether the run passed: every record verified in the file, and the client's connection
   * counted each record's completions ({@link LogAppender#completionsPerRecord}), so that the
   * report's completion figures are the run's.
   */
  static boolean passed(ClientReport client, int perRecord, LogVerification v) {
    return v.allVerified() && client.completionsMatch(perRecord);
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
