package dev.rpma.bench;

/** One of the three things measured: the C reference, the library, the thread-hop design. */
interface Contender {

  String name();

  /** Runs the scenario (its own warm-up first) and writes its result line. */
  void run(Scenario scenario, int round, Report report) throws Exception;
}
