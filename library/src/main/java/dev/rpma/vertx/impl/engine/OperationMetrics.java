package dev.rpma.vertx.impl.engine;

/**
 * What a connection's engine tells a metrics system about its operations and its life: the
 * seam to Vert.x's metrics SPI ({@code impl.VertxOperationMetrics}). {@link #NONE} when the
 * application runs without metrics: then nothing is allocated or recorded, and as it is the only
 * implementation loaded, the JIT reduces every call to nothing.
 *
 * <p>An operation's token, from {@link #started}, goes with it through the queue and the pending
 * table and comes back at each later step; a null token (not measured: {@link #NONE}'s, or a
 * keepalive probe's) is never passed back. Loop-confined, like the engine.
 */
public interface OperationMetrics {

  OperationMetrics NONE = new OperationMetrics() {
  };

  /**
   * An operation of the application reached the loop ({@code length}: the bytes it moves).
   * Returns its token; null when it is not measured.
   */
  default Object started(byte kind, long length) {
    return null;
  }

  /** The operation waits for room in its queue. */
  default void queued(Object token) {
  }

  /** The operation was handed to librpma (after waiting, if it did). */
  default void posted(Object token) {
  }

  /**
   * The operation ended: with {@code result} (its Future's value: a {@code Received} for a
   * receive) or with {@code failure}, posted or not.
   */
  default void ended(Object token, Object result, Throwable failure) {
  }

  /** The connection is established. */
  default void opened() {
  }

  /**
   * The connection is closed (after {@link #opened}, or not); the metrics are done with: the
   * engine reports nothing after it, not even an operation issued later on the closed connection
   * ({@link MetricsUntilClosed}).
   */
  default void closed() {
  }
}
