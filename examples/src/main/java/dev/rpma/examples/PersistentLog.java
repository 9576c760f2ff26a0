package dev.rpma.examples;

/**
 * A remote persistent log: a server verticle maps a file and lends it to a client verticle,
 * which appends checksummed records with RDMA writes and persistent flushes; then the server
 * checks every record in the file. Both verticles run in this JVM, on the device at
 * RPMA_TEST_IP. Exit code 0 only when every record was verified.
 *
 * <pre>
 *   ./dev rdma -- java -cp ... dev.rpma.examples.PersistentLog --records=2000 --window=16
 * </pre>
 */
public final class PersistentLog {

  private PersistentLog() {
  }

  public static void main(String[] args) {
    System.exit(LogRun.main(args, LogClientVerticle::new));
  }
}
