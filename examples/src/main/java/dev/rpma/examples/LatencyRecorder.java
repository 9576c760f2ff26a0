package dev.rpma.examples;

import java.util.Arrays;

/**
 * Latencies of a run, one sample per operation, kept whole: a run is at most a few million
 * operations, so a sorted long[] gives exact percentiles with nothing to tune.
 * Not thread-safe: recorded on one event loop, read after the run.
 */
public final class LatencyRecorder {

  private long[] samples;
  private int count;
  private long[] sorted;

  public LatencyRecorder(long expected) {
    this.samples = new long[(int) Math.min(Math.max(expected, 16), Integer.MAX_VALUE - 8)];
  }

  public void record(long nanos) {
    if (count == samples.length) {
      samples = Arrays.copyOf(samples, samples.length * 2);
    }
    samples[count++] = nanos;
    sorted = null;
  }

  public int count() {
    return count;
  }

  /** The nearest-rank percentile, in nanoseconds; 0 when nothing was recorded. */
  public long percentile(double p) {
    if (count == 0) {
      return 0;
    }
    if (sorted == null) {
      sorted = Arrays.copyOf(samples, count);
      Arrays.sort(sorted);
    }
    int rank = (int) Math.ceil(p / 100.0 * count);
    return sorted[Math.min(Math.max(rank, 1), count) - 1];
  }

  public long max() {
    return percentile(100);
  }
}
