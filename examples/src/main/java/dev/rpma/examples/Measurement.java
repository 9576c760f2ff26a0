package dev.rpma.examples;

/**
 * What a timed run of operations achieved.
 *
 * @param operations operations completed
 * @param elapsedNanos from the first start to the last completion
 * @param latencies one sample per operation, start to completion
 */
public record Measurement(long operations, long elapsedNanos, LatencyRecorder latencies) {

  public double perSecond() {
    return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
  }

  public double seconds() {
    return elapsedNanos / 1e9;
  }
}
