package dev.rpma.examples;

import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * What a nemesis client counts, and the checker's rules it breaks (violations): every Future of
 * an operation completes exactly once (each is given an id when it is issued; a second
 * completion, or one never coming, is a violation), and a record read back after it was
 * acknowledged is intact. Used on the client's context only.
 */
final class NemesisTally {

  /** Violations printed at most, of each run; all are counted. */
  private static final int SHOWN = 20;

  private final BitSet completed = new BitSet();
  private final List<String> violations = new ArrayList<>();
  private int violationCount;
  long issued;
  long completions;
  long failed;
  long appends;
  long reads;
  long readsIntact;
  long acknowledged;
  long sessions;
  long connectAttempts;
  long sessionFailures;

  /** Counts a Future as issued; its completion, once, as completed (twice: a violation). */
  <T> Future<T> track(Future<T> operation, Runnable onComplete) {
    int id = (int) issued++;
    operation.onComplete(ar -> {
      if (completed.get(id)) {
        violation("the Future of operation " + id + " completed twice");
      }
      completed.set(id);
      completions++;
      if (ar.failed()) {
        failed++;
      }
      onComplete.run();
    });
    return operation;
  }

  void violation(String what) {
    violationCount++;
    if (violations.size() < SHOWN) {
      violations.add(what);
    }
    System.out.println("nemesis client: VIOLATION " + what);
  }

  boolean passed() {
    return violationCount == 0 && issued == completions && acknowledged > 0;
  }

  /** The report: printed, and as key=value lines in {@code file} for the run's summary. */
  void report(int client, Path file) throws IOException {
    String verdict = passed() ? "PASSED" : "FAILED";
    List<String> lines = List.of(
        "client=" + client, "verdict=" + verdict, "operations=" + issued,
        "completed=" + completions, "failed=" + failed, "appends=" + appends,
        "reads=" + reads, "reads_intact=" + readsIntact, "acknowledged=" + acknowledged,
        "sessions=" + sessions,
        "reconnects=" + Math.max(0, sessions - 1), "connect_attempts=" + connectAttempts,
        "session_failures=" + sessionFailures, "violations=" + violationCount);
    System.out.println("nemesis client " + client + ": " + verdict);
    System.out.printf("  operations    %d issued (%d appends, %d read-backs), %d completed,"
        + " %d of them failed%n", issued, appends, reads, completions, failed);
    System.out.printf("  acknowledged  %d records durable; %d read back, %d intact%n",
        acknowledged, reads, readsIntact);
    System.out.printf("  sessions      %d (%d reconnects after %d failures), %d connect"
        + " attempts%n", sessions, Math.max(0, sessions - 1), sessionFailures, connectAttempts);
    System.out.printf("  violations    %d%n", violationCount);
    violations.forEach(v -> System.out.println("    " + v));
    if (issued != completions) {
      System.out.println("    " + (issued - completions) + " Futures never completed");
    }
    Files.write(file, lines);
  }
}
