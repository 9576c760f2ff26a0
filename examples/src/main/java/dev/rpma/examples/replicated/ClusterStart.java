package dev.rpma.examples.replicated;

import dev.rpma.examples.Steps;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Starts a node's clustered Vert.x ({@link ClusterNode#join}) as a user's program would: a start
 * that fails is tried again after a back-off that doubles, and each failure is said. On a busy
 * host a cold JVM can block in Hazelcast's join long enough for the members to suspect and
 * drop it, and Vert.x then fails to start (and closes what it started); a new attempt joins
 * afresh. A start still under way is never given up on: an attempt abandoned on a timer stays
 * a member until it ends, and in the guests such strays (two nodes of one server at once) kept
 * the membership changing for minutes; Hazelcast bounds a join itself
 * ({@code hazelcast.max.join.seconds}).
 */
final class ClusterStart {

  /** Attempts before the start is given up. */
  static final int ATTEMPTS = 5;
  /** The first back-off; it doubles after each failure (5, 10, 20, 40 s). */
  static final long FIRST_BACK_OFF_MS = 5_000;

  private ClusterStart() {
  }

  /** Joins the cluster from {@code host} ({@link ClusterNode#join}), trying again on failure. */
  static Vertx join(String who, String host, List<String> members, boolean lite)
      throws Exception {
    return withRetries(who, () -> ClusterNode.join(host, members, lite), ATTEMPTS,
        FIRST_BACK_OFF_MS);
  }

  /**
   * The result of the first of up to {@code attempts} calls of {@code start} that succeeds;
   * each attempt is waited for until it completes; between attempts it waits
   * {@code firstBackOffMs}, doubled each time. Fails with the last attempt's cause once every
   * attempt failed.
   */
  static <T> T withRetries(String who, Supplier<Future<T>> start, int attempts,
      long firstBackOffMs) throws Exception {
    long backOff = firstBackOffMs;
    for (int attempt = 1; ; attempt++) {
      long began = System.nanoTime();
      try {
        T started = start.get().toCompletionStage().toCompletableFuture().get();
        if (attempt > 1) {
          System.out.println(who + ": the cluster start succeeded at attempt " + attempt
              + " of " + attempts);
        }
        return started;
      } catch (ExecutionException e) {
        String cause = Steps.describe(e.getCause());
        System.out.printf("%s: the cluster start failed (attempt %d of %d, after %.1f s): %s%s%n",
            who, attempt, attempts, (System.nanoTime() - began) / 1e9, cause,
            attempt == attempts ? "; giving up" : "; trying again in " + backOff + " ms");
        if (attempt == attempts) {
          throw new IllegalStateException(who + ": the cluster start failed " + attempts
              + " times, the last: " + cause, e.getCause());
        }
      }
      Thread.sleep(backOff);
      backOff *= 2;
    }
  }
}
