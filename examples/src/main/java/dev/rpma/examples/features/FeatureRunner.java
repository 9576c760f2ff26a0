package dev.rpma.examples.features;

import dev.rpma.examples.ExampleLogging;
import dev.rpma.examples.Settings;
import java.io.PrintStream;
import java.util.List;

/**
 * The {@code main} of the feature examples: {@code --address} (default {@code RPMA_TEST_IP})
 * and {@code --port}; prints "NAME: PASSED" and the report, or "NAME: FAILED: why". Exit code 0
 * only when every example run passed.
 */
public final class FeatureRunner {

  private FeatureRunner() {
  }

  /** Runs {@code examples} one after the other in this JVM, then exits. */
  public static void main(String[] args, List<FeatureExample> examples) {
    ExampleLogging.configure();
    if (Settings.helpRequested(args)) {
      System.out.println("options: --address=IP (default RPMA_TEST_IP, set by ./dev rdma),"
          + " --port=N (one example only; default: each example's own)");
      return;
    }
    String address;
    int port;
    try {
      Settings settings = Settings.parse(args);
      address = settings.deviceAddress();
      port = settings.integer("port", 0, 0, 65535);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    int failed = 0;
    for (FeatureExample example : examples) {
      int p = port != 0 && examples.size() == 1 ? port : example.defaultPort();
      failed += run(example, address, p, System.out) ? 0 : 1;
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /** Runs one example and prints its report; whether it passed. */
  static boolean run(FeatureExample example, String address, int port, PrintStream out) {
    long start = System.nanoTime();
    try {
      String report = example.run(address, port);
      out.printf("%s: PASSED (%.1f s, %s:%d)%n", example.name(),
          (System.nanoTime() - start) / 1e9, address, port);
      out.print(report.indent(2));
      return true;
    } catch (Exception e) {
      out.println(example.name() + ": FAILED: " + describe(e));
      e.printStackTrace(out);
      return false;
    }
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
