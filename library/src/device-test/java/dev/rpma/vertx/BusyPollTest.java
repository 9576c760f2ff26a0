package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Hybrid polling ({@link ConnectionOptions#setBusyPollMicros}) on the device: a drain that finds
 * the CQ empty spins before sleeping on its fd, and what completes within the spin is taken
 * without a wakeup; the loop still serves its other work.
 */
@Tag("rdma")
class BusyPollTest {

  private static final int ROUNDS = 500;
  /** Writes one after another: some hundreds of ms on the emulated device, many time budgets. */
  private static final int TIMER_ROUNDS = 2000;
  /** Far above a round trip on the emulated device (about 0.1 ms), so nearly all are caught. */
  private static final ConnectionOptions SPINNING =
      new ConnectionOptions().setBusyPollMicros(ConnectionOptions.MAX_BUSY_POLL_MICROS / 100);

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void operationsPostedOneAfterAnotherCompleteWithTheirBytesAndMostWithoutAWakeup() {
    try (Loopback pair = Loopback.open(vertx, SPINNING)) {
      await(onLoop(pair, done -> writeThenReadBack(pair, 0, done)));
      CompletionStats stats = RdmaTestSupport.statsOf(pair.client);
      assertEquals(2L * ROUNDS, stats.completions());
      assertTrue(stats.wakeups() < stats.completions() / 2, "completions taken while spinning"
          + " need no wakeup: " + stats.wakeups() + " wakeups for " + stats.completions());
    }
  }

  @Test
  void theLoopStillRunsItsTimersWhileAConnectionSpins() {
    try (Loopback pair = Loopback.open(vertx, SPINNING)) {
      AtomicLong timerFiredAtRound = new AtomicLong(-1);
      AtomicLong round = new AtomicLong();
      await(onLoop(pair, done -> {
        pair.client.context().owner().setTimer(20, id -> timerFiredAtRound.set(round.get()));
        spinRounds(pair, round, done);
      }));
      assertTrue(timerFiredAtRound.get() >= 0 && timerFiredAtRound.get() < TIMER_ROUNDS,
          "a timer of the busy loop fired during the rounds: " + timerFiredAtRound.get());
    }
  }

  /**
   * From round {@code i} on: a write of a pattern, then a read of it back, checked; each round
   * starts from the previous one's callback (no chain of composed Futures, whose completion
   * would unwind thousands of frames deep).
   */
  private static void writeThenReadBack(Loopback pair, int i, Promise<Void> done) {
    if (i == ROUNDS) {
      done.complete();
      return;
    }
    byte[] pattern = new byte[64];
    for (int b = 0; b < pattern.length; b++) {
      pattern[b] = (byte) (i * 7 + b);
    }
    pair.clientRegion.buffer().put(0, pattern);
    pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64)
        .compose(v -> pair.client.read(pair.clientRegion, 4096, pair.remote, 0, 64))
        .onComplete(ar -> {
          byte[] back = new byte[64];
          pair.clientRegion.buffer().get(4096, back);
          if (ar.failed()) {
            done.fail(ar.cause());
          } else if (!Arrays.equals(pattern, back)) {
            done.fail(new AssertionError("round " + i + ": read back "
                + Arrays.toString(back)));
          } else {
            writeThenReadBack(pair, i + 1, done);
          }
        });
  }

  private static void spinRounds(Loopback pair, AtomicLong round, Promise<Void> done) {
    pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
      } else if (round.incrementAndGet() == TIMER_ROUNDS) {
        done.complete();
      } else {
        spinRounds(pair, round, done);
      }
    });
  }

  /** Runs {@code start} on the connection's context with a promise it completes at the end. */
  private static Future<Void> onLoop(Loopback pair,
      Consumer<Promise<Void>> start) {
    Promise<Void> done = Promise.promise();
    pair.client.context().runOnContext(v -> start.accept(done));
    return done.future();
  }
}
