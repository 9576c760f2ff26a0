package dev.rpma.vertx.impl.engine;

/**
 * The engine's side of the metrics contract "nothing after {@code closed()}": forwards every
 * call to the metrics until their {@link #closed}, and drops every call after it (an operation
 * issued on a closed connection is then not measured: its {@code started} returns null, so no
 * later step is reported either). A second {@code closed()} is dropped too. One gate for every
 * path that reports (posting, waiting, completions, teardown) instead of a check at each.
 * Loop-confined, like the engine that owns it.
 */
final class MetricsUntilClosed implements OperationMetrics {

  private final OperationMetrics metrics;
  private boolean closed;

  private MetricsUntilClosed(OperationMetrics metrics) {
    this.metrics = metrics;
  }

  /** {@code metrics}, gated; {@link #NONE} stays itself, so that it still costs nothing. */
  static OperationMetrics gate(OperationMetrics metrics) {
    return metrics == NONE || metrics instanceof MetricsUntilClosed ? metrics
        : new MetricsUntilClosed(metrics);
  }

  @Override
  public Object started(byte kind, long length) {
    return closed ? null : metrics.started(kind, length);
  }

  @Override
  public void queued(Object token) {
    if (!closed) {
      metrics.queued(token);
    }
  }

  @Override
  public void posted(Object token) {
    if (!closed) {
      metrics.posted(token);
    }
  }

  @Override
  public void ended(Object token, Object result, Throwable failure) {
    if (!closed) {
      metrics.ended(token, result, failure);
    }
  }

  @Override
  public void opened() {
    if (!closed) {
      metrics.opened();
    }
  }

  @Override
  public void closed() {
    if (!closed) {
      closed = true;
      metrics.closed();
    }
  }
}
