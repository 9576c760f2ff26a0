package dev.rpma.vertx.impl.engine;

/**
 * Where one connection is in its life cycle: CONNECTING until the ESTABLISHED event, OPEN, then
 * CLOSING (disconnect sent; waiting for the peer's CLOSED event, at most the configured timeout)
 * and CLOSED. Its engine moves it to OPEN, its closing path ({@link ConnectionClosing}) on from
 * there. Loop only, but for {@link #openHint()}.
 */
final class ConnectionState {

  private enum Phase { CONNECTING, OPEN, CLOSING, CLOSED }

  private Phase phase = Phase.CONNECTING;
  private volatile boolean openHint; // OPEN, for hints on other threads

  boolean connecting() {
    return phase == Phase.CONNECTING;
  }

  boolean open() {
    return phase == Phase.OPEN;
  }

  /** CONNECTING or OPEN: nothing has begun to close it. */
  boolean live() {
    return phase == Phase.CONNECTING || phase == Phase.OPEN;
  }

  boolean closing() {
    return phase == Phase.CLOSING;
  }

  boolean closed() {
    return phase == Phase.CLOSED;
  }

  void toOpen() {
    phase = Phase.OPEN;
    openHint = true;
  }

  void toClosing() {
    phase = Phase.CLOSING;
    openHint = false;
  }

  void toClosed() {
    phase = Phase.CLOSED;
    openHint = false;
  }

  /** Still OPEN on the loop until its close runs, but no longer taking operations. */
  void queuePairFailed() {
    openHint = false;
  }

  /** Whether it takes operations; any thread (it may change right after). */
  boolean openHint() {
    return openHint;
  }
}
