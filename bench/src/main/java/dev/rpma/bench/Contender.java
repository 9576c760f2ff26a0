package dev.rpma.bench;

/**
 * One of the things measured: the C reference, the library (and its variants), the thread-hop
 * design.
 */
interface Contender {

  String name();

  /** Whether it is measured on {@code scenario} at all. */
  default boolean covers(Scenario scenario) {
    return true;
  }

  /** Runs the scenario (its own warm-up first) and writes its result line. */
  void run(Scenario scenario, int round, Report report) throws Exception;
}
