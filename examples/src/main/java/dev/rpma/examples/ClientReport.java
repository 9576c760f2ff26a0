package dev.rpma.examples;

import dev.rpma.vertx.CompletionStats;

/**
 * What a client measured.
 *
 * @param deviceName the RDMA device the client's peer is on
 * @param measurement operations, time, latencies
 * @param stats the connection's completion-path counters at the end
 */
public record ClientReport(String deviceName, Measurement measurement, CompletionStats stats) {

  /**
   * Whether the connection counted {@code perOperation} completions for each operation
   * measured, keepalive probes aside: what the report's "completions" line must show.
   */
  public boolean completionsMatch(int perOperation) {
    return stats.completions() - stats.keepAliveProbes()
        == (long) perOperation * measurement.operations();
  }
}
