package dev.rpma.vertx;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting in tests, the one place for it: device tests, host tests and the child programs all
 * wait through here. Every wait has a deadline and fails with an {@link AssertionError} that
 * says what was awaited; nothing hangs. Plain JDK and Vert.x only (no JUnit), so the child
 * programs, which run without JUnit on their class path, can use it too.
 */
public final class Await {

  /** The default deadline: generous, as the Soft-RoCE guest runs a JVM about ten times slower. */
  public static final long SECONDS = 120;

  private static final Duration DEADLINE = Duration.ofSeconds(SECONDS);

  /** How long a {@link #waitUntil} sleeps between two checks: short, and never a busy spin. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** A condition to wait for; it may throw (reading a file, say), which fails the wait. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Await() {
  }

  /** The future's value, within {@link #SECONDS}; fails if it fails or does not complete. */
  public static <T> T await(Future<T> future) {
    return await(future, DEADLINE);
  }

  /** The future's value, within {@code deadline}; fails if it fails or does not complete. */
  public static <T> T await(Future<T> future, Duration deadline) {
    try {
      return future.toCompletionStage().toCompletableFuture()
          .get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("the future failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("the future did not complete within " + seconds(deadline));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while awaiting a future", e);
    }
  }

  /** Why the future failed, within {@link #SECONDS}; fails if it succeeds or does not complete. */
  public static Throwable awaitFailure(Future<?> future) {
    return awaitFailure(future, DEADLINE);
  }

  /** Why the future failed, within {@code deadline}; fails if it succeeds or never completes. */
  public static Throwable awaitFailure(Future<?> future, Duration deadline) {
    Object value;
    try {
      value = future.toCompletionStage().toCompletableFuture()
          .get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("the future did not fail within " + seconds(deadline)
          + ": it did not complete");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while awaiting a future's failure", e);
    }
    throw new AssertionError("expected the future to fail, it succeeded with " + value);
  }

  /** Returns once {@code condition} holds; fails, naming {@code what}, after {@link #SECONDS}. */
  public static void waitUntil(String what, Condition condition) {
    waitUntil(what, DEADLINE, condition);
  }

  /** Returns once {@code condition} holds; fails, naming {@code what}, after {@code deadline}. */
  public static void waitUntil(String what, Duration deadline, Condition condition) {
    if (!holdsWithin(deadline, condition)) {
      throw new AssertionError("not within " + seconds(deadline) + ": " + what);
    }
  }

  /**
   * Whether {@code condition} came to hold within {@code deadline}, for a caller that reports
   * the outcome itself (a child program printing PASS or FAIL, a test adding what it measured).
   */
  public static boolean holdsWithin(Duration deadline, Condition condition) {
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      try {
        if (condition.holds()) {
          return true;
        }
      } catch (Exception e) {
        throw new AssertionError("the condition waited for threw " + e, e);
      }
      if (System.nanoTime() - end >= 0) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting");
      }
    }
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}
