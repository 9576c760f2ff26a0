package dev.rpma.examples.features;

import java.util.List;

/**
 * All the feature examples, one after the other in one JVM (what {@code ./dev test} runs in its
 * guest: one JVM start instead of six). {@code ./dev example features}.
 */
public final class Features {

  /** Every feature example, in the order they run. */
  public static final List<FeatureExample> ALL = List.of(
      new AtomicWriteExample(),
      new ImmediateDataExample(),
      new SharedQueueExample(),
      new BusyPollExample(),
      new IoUringExample(),
      new MetricsExample());

  private Features() {
  }

  public static void main(String[] args) {
    FeatureRunner.main(args, ALL);
  }
}
