package dev.rpma.examples;

import io.vertx.core.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The main thread's view of a run: named steps, each awaited within what is left of one
 * overall time limit, so a failure or a hang is reported as the step it happened in.
 */
public final class Steps {

  /** A step failed or ran out of time; the message names the step and the cause. */
  static final class StepFailedException extends Exception {
    StepFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final long deadlineNanos;
  private final long timeoutSeconds;

  Steps(long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
    this.deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
  }

  /** Blocks the calling (main, never an event loop) thread until the step's future is done. */
  <T> T await(String step, Future<T> future) throws StepFailedException {
    long left = Math.max(0, deadlineNanos - System.nanoTime());
    try {
      return future.toCompletionStage().toCompletableFuture().get(left, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new StepFailedException(step + ": " + describe(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      throw new StepFailedException(
          step + ": not done within the run's time limit of " + timeoutSeconds + " s", null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StepFailedException(step + ": interrupted", e);
    }
  }

  /** A cause as one line: the message, with the type when the message alone is unclear. */
  public static String describe(Throwable t) {
    if (t == null) {
      return "unknown cause";
    }
    String message = t.getMessage();
    String text = message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
    Throwable cause = t.getCause();
    if (cause != null && cause != t && cause.getMessage() != null
        && !text.contains(cause.getMessage())) {
      text += " (" + cause.getMessage() + ")";
    }
    return text;
  }
}
