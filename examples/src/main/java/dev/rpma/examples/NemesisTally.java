package dev.rpma.examples;

import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What a nemesis client counts, and the checker's rules it breaks: every Future of an
 * operation completes exactly once (each is given an id when it is issued; a second
 * completion, or one never coming, is a violation); a record read back after it was
 * acknowledged is intact; and every session that a fault ended is resumed, a record
 * acknowledged again, within the resume bound of its end (one that is not, by then or by the
 * client's end, counts in {@code never_resumed}). The verdict passes only with none of these
 * and at least one record acknowledged. Used on the client's context only.
 */
final class NemesisTally {

  /** Violations printed at most, of each run; all are counted. */
  private static final int SHOWN = 20;

  private final BitSet completed = new BitSet();
  private final List<String> violations = new ArrayList<>();
  private final long resumeBoundMs;
  private final LongSupplier clockMs;
  private int violationCount;
  /** When the session awaiting its resume ended (clock ms); -1 when none awaits one. */
  private long awaitingSince = -1;
  private long longestResumeMs;
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
  long resumed;
  long neverResumed;

  /**
   * @param resumeBoundMs how long after a session's failure a record must be acknowledged again
   * @param clockMs the time in milliseconds (monotonic)
   */
  NemesisTally(long resumeBoundMs, LongSupplier clockMs) {
    this.resumeBoundMs = resumeBoundMs;
    this.clockMs = clockMs;
  }

  /** Counts a Future as issued; its completion, once, as completed (twice: a violation). */
  <T> Future<T> track(Future<T> operation, Runnable onComplete) {
    int id = issue();
    operation.onComplete(ar -> {
      completed(id, ar.failed());
      onComplete.run();
    });
    return operation;
  }

  /** An operation issued: its id. */
  int issue() {
    return (int) issued++;
  }

  /** Operation {@code id} completed; a second time is a violation. */
  void completed(int id, boolean failure) {
    if (completed.get(id)) {
      violation("the Future of operation " + id + " completed twice");
    }
    completed.set(id);
    completions++;
    if (failure) {
      failed++;
    }
  }

  /** A record acknowledged as durable for the first time: resumes a session a fault ended. */
  void acknowledged() {
    acknowledged++;
    if (awaitingSince >= 0) {
      long took = clockMs.getAsLong() - awaitingSince;
      longestResumeMs = Math.max(longestResumeMs, took);
      awaitingSince = -1;
      if (took <= resumeBoundMs) {
        resumed++;
      } else {
        neverResumed++;
        violation("a session ended by a fault was resumed only after " + took + " ms, past the"
            + " bound of " + resumeBoundMs + " ms");
      }
    }
  }

  /** A session ended by a failure (a fault): a record must be acknowledged again in time. */
  void sessionFailed() {
    sessionFailures++;
    if (awaitingSince < 0) {
      awaitingSince = clockMs.getAsLong();
    }
  }

  /** Whether a session a fault ended still awaits its resume, within the bound: keep at it. */
  boolean awaitingResume() {
    return awaitingSince >= 0 && clockMs.getAsLong() - awaitingSince <= resumeBoundMs;
  }

  /** The client's end: a session still awaiting its resume never resumed. */
  void finish() {
    if (awaitingSince >= 0) {
      neverResumed++;
      violation("a session ended by a fault " + (clockMs.getAsLong() - awaitingSince)
          + " ms before the client's end was never resumed (bound " + resumeBoundMs + " ms)");
      awaitingSince = -1;
    }
  }

  void violation(String what) {
    violationCount++;
    if (violations.size() < SHOWN) {
      violations.add(what);
    }
    System.out.println("nemesis client: VIOLATION " + what);
  }

  boolean passed() {
    return violationCount == 0 && issued == completions && acknowledged > 0
        && neverResumed == 0;
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
        "session_failures=" + sessionFailures, "resumed=" + resumed,
        "never_resumed=" + neverResumed, "longest_resume_ms=" + longestResumeMs,
        "violations=" + violationCount);
    System.out.println("nemesis client " + client + ": " + verdict);
    System.out.printf("  operations    %d issued (%d appends, %d read-backs), %d completed,"
        + " %d of them failed%n", issued, appends, reads, completions, failed);
    System.out.printf("  acknowledged  %d records durable; %d read back, %d intact%n",
        acknowledged, reads, readsIntact);
    System.out.printf("  sessions      %d (%d reconnects after %d failures), %d connect"
        + " attempts%n", sessions, Math.max(0, sessions - 1), sessionFailures, connectAttempts);
    System.out.printf("  resumes       %d within %d ms of the failure, %d never (the longest"
        + " took %d ms)%n", resumed, resumeBoundMs, neverResumed, longestResumeMs);
    System.out.printf("  violations    %d%n", violationCount);
    violations.forEach(v -> System.out.println("    " + v));
    if (issued != completions) {
      System.out.println("    " + (issued - completions) + " Futures never completed");
    }
    Files.write(file, lines);
  }
}
