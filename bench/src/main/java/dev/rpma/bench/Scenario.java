package dev.rpma.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One measured situation: a latency scenario (an operation and a size, one in flight) or a
 * throughput one (64 B writes, a window of them in flight).
 */
record Scenario(String kind, Op op, int size, int window) {

  static Scenario latency(Op op, int size) {
    return new Scenario("latency", op, size, 1);
  }

  static Scenario throughput(int window) {
    return new Scenario("throughput", Op.WRITE, BenchConfig.THROUGHPUT_SIZE, window);
  }

  boolean isLatency() {
    return kind.equals("latency");
  }

  /** Every scenario, in the order the report lists them. */
  static List<Scenario> all() {
    List<Scenario> all = new ArrayList<>();
    for (int size : BenchConfig.LATENCY_SIZES) {
      for (Op op : BenchConfig.LATENCY_OPS) {
        all.add(latency(op, size));
      }
    }
    for (int window : BenchConfig.WINDOWS) {
      all.add(throughput(window));
    }
    return all;
  }

  @Override
  public String toString() {
    return isLatency() ? kind + " " + op.label + " " + size + " B" : kind + " window " + window;
  }
}
