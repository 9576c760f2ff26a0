package dev.rpma.bench;

import java.util.Arrays;

/**
 * Latencies in nanoseconds. Percentiles are nearest-rank over the sorted samples (the value at
 * index ceil(p * n) - 1), exactly as the C reference computes them (bench_stats.c), so the
 * two compare without a histogram's rounding in between.
 */
final class Samples {

  private long[] values;
  private int count;
  private boolean sorted;

  Samples(int expected) {
    values = new long[Math.max(16, expected)];
  }

  /** Called per operation: no allocation unless the array must grow. */
  void add(long nanos) {
    if (count == values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    values[count++] = nanos;
    sorted = false;
  }

  int count() {
    return count;
  }

  long percentile(double p) {
    if (count == 0) {
      return 0;
    }
    if (!sorted) {
      Arrays.sort(values, 0, count);
      sorted = true;
    }
    int rank = Math.max(1, (int) Math.ceil(p * count));
    return values[rank - 1];
  }

  double mean() {
    if (count == 0) {
      return 0;
    }
    double sum = 0;
    for (int i = 0; i < count; i++) {
      sum += values[i];
    }
    return sum / count;
  }
}
