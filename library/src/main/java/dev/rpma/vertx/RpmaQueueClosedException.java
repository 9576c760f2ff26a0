package dev.rpma.vertx;

/**
 * The shared receive queue is closed (or its receive CQ failed): a receive given to it did not
 * run, or was still posted when it closed and will never complete. The message says which.
 *
 * @since 0.1.0
 */
public class RpmaQueueClosedException extends RpmaException {

  /**
   * Without a cause: the queue was closed.
   *
   * @param message what did not run, and why
   */
  public RpmaQueueClosedException(String message) {
    super(message, 0, 0);
  }

  /**
   * With the cause that ended the queue.
   *
   * @param message what did not run, and why
   * @param cause why the queue went away
   */
  public RpmaQueueClosedException(String message, Throwable cause) {
    super(message, 0, 0, cause);
  }
}
