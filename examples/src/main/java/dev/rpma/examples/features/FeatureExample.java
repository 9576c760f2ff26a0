package dev.rpma.examples.features;

/**
 * One short example of one feature, run against the RDMA device at an address: a server and a
 * client side in this JVM. Written the way an application's {@code main} would be, with
 * {@code Future.await()} on the calling thread (inside a verticle, compose the Futures instead).
 */
public interface FeatureExample {

  /** The name {@code ./dev example NAME} knows it by, e.g. {@code atomic-write}. */
  String name();

  /** The port its server listens on unless {@code --port} says otherwise. */
  int defaultPort();

  /**
   * Runs the example and checks what it did.
   *
   * @return the report's lines: what was done and what was seen
   * @throws Exception with what went wrong, when a step failed or a check did not hold
   */
  String run(String address, int port) throws Exception;

  /** A check of the example's outcome: fails the run with {@code what} when it does not hold. */
  static void check(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("check failed: " + what);
    }
  }
}
