package dev.rpma.examples.replicated;

import dev.rpma.examples.Steps;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Starts a node's clustered Vert.x ({@link ClusterNode#join}) as a user's program would: a start
 * that fails, or does not finish in time, is tried again after a back-off that doubles, and
 * each failure is said. On a busy host a cold JVM can block in Hazelcast's join long enough
 * for the members to suspect and drop it, and Vert.x then fails to start; a new attempt joins
 * afresh. A start given up on is closed if it finishes later, so no stray node stays a member.
 */
final class ClusterStart {

  /** Attempts before the start is given up: a busy host's blocked join passed on the second. */
  static final int ATTEMPTS = 5;
  /** The first back-off; it doubles after each failure (5, 10, 20, 40 s). */
  static final long FIRST_BACK_OFF_MS = 5_000;
  /** How long one attempt may take: a cold JVM's join in a loaded guest takes a minute or two. */
  static final long ATTEMPT_MS = 300_000;

  private ClusterStart() {
  }

  /** Joins the cluster from {@code host} ({@link ClusterNode#join}), trying again on failure. */
  static Vertx join(String who, String host, List<String> members, boolean lite)
      throws Exception {
    return withRetries(who, () -> ClusterNode.join(host, members, lite), ATTEMPTS,
        FIRST_BACK_OFF_MS, ATTEMPT_MS, Vertx::close);
  }

  /**
   * The result of the first of up to {@code attempts} calls of {@code start} that succeeds
   * within {@code attemptMs}; between attempts it waits {@code firstBackOffMs}, doubled each
   * time. An attempt that succeeds after it was given up on is handed to {@code discard}.
   * Fails with the last attempt's cause once every attempt failed.
   */
  static <T> T withRetries(String who, Supplier<Future<T>> start, int attempts,
      long firstBackOffMs, long attemptMs, Consumer<T> discard) throws Exception {
    long backOff = firstBackOffMs;
    for (int attempt = 1; ; attempt++) {
      long began = System.nanoTime();
      Future<T> starting = start.get();
      try {
        T started = starting.toCompletionStage().toCompletableFuture()
            .get(attemptMs, TimeUnit.MILLISECONDS);
        if (attempt > 1) {
          System.out.println(who + ": the cluster start succeeded at attempt " + attempt
              + " of " + attempts);
        }
        return started;
      } catch (TimeoutException e) {
        starting.onSuccess(discard::accept);
        say(who, attempt, attempts, began, "not done within " + attemptMs + " ms", backOff);
        if (attempt == attempts) {
          throw new IllegalStateException(who + ": the cluster start failed " + attempts
              + " times, the last not done within " + attemptMs + " ms");
        }
      } catch (ExecutionException e) {
        say(who, attempt, attempts, began, Steps.describe(e.getCause()), backOff);
        if (attempt == attempts) {
          throw new IllegalStateException(who + ": the cluster start failed " + attempts
              + " times, the last: " + Steps.describe(e.getCause()), e.getCause());
        }
      }
      Thread.sleep(backOff);
      backOff *= 2;
    }
  }

  private static void say(String who, int attempt, int attempts, long began, String why,
      long backOff) {
    System.out.printf("%s: the cluster start failed (attempt %d of %d, after %.1f s): %s%s%n",
        who, attempt, attempts, (System.nanoTime() - began) / 1e9, why,
        attempt == attempts ? "; giving up" : "; trying again in " + backOff + " ms");
  }
}
