package dev.rpma.examples;

/** One-line log records, so warnings read as part of the report instead of breaking it up. */
public final class ExampleLogging {

  private ExampleLogging() {
  }

  /** Call first in main, before anything creates a java.util.logging logger. */
  public static void configure() {
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%6$s%n");
    }
  }
}
