package dev.rpma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nemesis client's verdict: each rule broken alone fails it. */
class NemesisTallyTest {

  private static final long BOUND_MS = 300_000;

  private final AtomicLong now = new AtomicLong(1_000);
  private final NemesisTally tally = new NemesisTally(BOUND_MS, now::get);

  @TempDir
  Path dir;

  /** One operation that completed, one record acknowledged: what a healthy run has. */
  private void oneAcknowledgedAppend() {
    tally.track(Future.succeededFuture(), () -> { });
    tally.acknowledged();
  }

  /** A healthy start, then a session a fault ended: it now awaits its resume. */
  private void aSessionEndedByAFault() {
    oneAcknowledgedAppend();
    tally.sessionFailed();
  }

  @Test
  void aRunWhoseEveryFutureCompletedOnceAndThatAcknowledgedPasses() {
    oneAcknowledgedAppend();
    tally.track(Future.failedFuture("a fault"), () -> { });
    assertTrue(tally.passed());
    assertEquals(1, tally.failed);
  }

  @Test
  void aFutureCompletingTwiceFailsIt() {
    oneAcknowledgedAppend();
    int id = tally.issue();
    tally.completed(id, false);
    tally.completed(id, false);
    assertFalse(tally.passed());
  }

  @Test
  void aFutureNeverCompletingFailsIt() {
    oneAcknowledgedAppend();
    Promise<Void> never = Promise.promise();
    tally.track(never.future(), () -> { });
    assertFalse(tally.passed());
    assertEquals(2, tally.issued);
    assertEquals(1, tally.completions);
  }

  @Test
  void nothingAcknowledgedFailsIt() {
    tally.track(Future.succeededFuture(), () -> { });
    assertFalse(tally.passed());
  }

  @Test
  void aSessionAFaultEndedResumedWithinTheBoundPasses() {
    aSessionEndedByAFault();
    now.addAndGet(BOUND_MS);
    tally.acknowledged();
    tally.finish();
    assertTrue(tally.passed());
    assertEquals(1, tally.resumed);
    assertEquals(0, tally.neverResumed);
  }

  @Test
  void aSessionAFaultEndedThatNeverResumedFailsIt() {
    aSessionEndedByAFault();
    now.addAndGet(1_000);
    tally.finish();
    assertFalse(tally.passed());
    assertEquals(1, tally.neverResumed);
  }

  @Test
  void aSessionResumedOnlyPastTheBoundFailsIt() {
    aSessionEndedByAFault();
    now.addAndGet(BOUND_MS + 1);
    tally.acknowledged();
    tally.finish();
    assertFalse(tally.passed());
    assertEquals(1, tally.neverResumed);
  }

  @Test
  void aSessionAwaitingItsResumeKeepsTheClientGoingUntilTheBoundPasses() {
    aSessionEndedByAFault();
    assertTrue(tally.awaitingResume());
    now.addAndGet(BOUND_MS + 1);
    assertFalse(tally.awaitingResume());
  }

  @Test
  void failuresBeforeOneResumeAreResumedByIt() {
    aSessionEndedByAFault();
    now.addAndGet(5_000);
    tally.sessionFailed();
    tally.acknowledged();
    tally.finish();
    assertTrue(tally.passed());
    assertEquals(2, tally.sessionFailures);
    assertEquals(1, tally.resumed);
  }

  @Test
  void theReportCarriesTheVerdictAndTheSessionsThatNeverResumed() throws IOException {
    aSessionEndedByAFault();
    tally.finish();
    Path report = dir.resolve("report.txt");
    tally.report(0, report);
    var lines = Files.readAllLines(report);
    assertTrue(lines.contains("verdict=FAILED"), lines.toString());
    assertTrue(lines.contains("never_resumed=1"), lines.toString());
  }
}
