package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;

/**
 * Settings of a connection, on either side: queue sizes, the CM timeout, how completions are
 * delivered, and how they are drained.
 *
 * <p>Queue sizes bound what is in flight: the library never has more signalled operations
 * outstanding than the CQ holds (a CQ overrun would kill it), and keeps the rest waiting in
 * order until completions make room.
 *
 * <p>A Vert.x data object: it can come from a verticle's {@code config()}
 * ({@code new ConnectionOptions(config().getJsonObject("rpma"))}), with the setters' names as
 * keys ({@code {"cqSize": 256, "connectTimeoutMs": 5000}}); {@link #toJson()} gives them back.
 */
public class ConnectionOptions {

  /** The largest queue size accepted: far beyond any device's limit, still a clear error. */
  public static final int MAX_QUEUE_SIZE = 1 << 16;

  /** The longest busy-poll spin accepted: past a second the loop is no event loop any more. */
  public static final int MAX_BUSY_POLL_MICROS = 1_000_000;

  private int cqSize = 64;
  private int sqSize = 64;
  private int rqSize = 64;
  private int rcqSize = 0;
  private boolean sharedCompletionChannel;
  private int timeoutMs = 1000;
  private int drainBatch = 32;
  private int drainBudget = 1024;
  private int completionTimeoutMs = 30_000;
  private int connectTimeoutMs = 30_000;
  private int keepAliveMs = 10_000;
  private int busyPollMicros;

  /** The defaults. */
  public ConnectionOptions() {
  }

  /**
   * The options in {@code json}, the defaults for keys it lacks. Each value goes through its
   * setter, so it is checked as there.
   *
   * @param json keys named as the setters ({@code cqSize}, {@code sharedCompletionChannel} ...)
   * @throws IllegalArgumentException for an unknown key (a typo would otherwise be ignored) or
   *     a value of the wrong type or range, naming the key
   */
  public ConnectionOptions(JsonObject json) {
    ConnectionOptionsConverter.fromJson(json, this);
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public ConnectionOptions(ConnectionOptions other) {
    this.cqSize = other.cqSize;
    this.sqSize = other.sqSize;
    this.rqSize = other.rqSize;
    this.rcqSize = other.rcqSize;
    this.sharedCompletionChannel = other.sharedCompletionChannel;
    this.timeoutMs = other.timeoutMs;
    this.drainBatch = other.drainBatch;
    this.drainBudget = other.drainBudget;
    this.completionTimeoutMs = other.completionTimeoutMs;
    this.connectTimeoutMs = other.connectTimeoutMs;
    this.keepAliveMs = other.keepAliveMs;
    this.busyPollMicros = other.busyPollMicros;
  }

  /**
   * Completion queue size (default 64): bounds the operations in flight.
   *
   * @param cqSize the value
   * @return these options
   */
  public ConnectionOptions setCqSize(int cqSize) {
    this.cqSize = checkSize("cqSize", cqSize, 1);
    return this;
  }

  /**
   * Send queue size (default 64): bounds reads, writes, flushes and sends in flight.
   *
   * @param sqSize the value
   * @return these options
   */
  public ConnectionOptions setSqSize(int sqSize) {
    this.sqSize = checkSize("sqSize", sqSize, 1);
    return this;
  }

  /**
   * Receive queue size (default 64): bounds the posted receives.
   *
   * @param rqSize the value
   * @return these options
   */
  public ConnectionOptions setRqSize(int rqSize) {
    this.rqSize = checkSize("rqSize", rqSize, 1);
    return this;
  }

  /**
   * Size of a separate receive CQ; 0 (default) delivers receives on the main CQ.
   *
   * @param rcqSize the value
   * @return these options
   */
  public ConnectionOptions setRcqSize(int rcqSize) {
    this.rcqSize = checkSize("rcqSize", rcqSize, 0);
    return this;
  }

  /**
   * One completion channel (one fd) for the main and the receive CQ (default false).
   *
   * @param shared the value
   * @return these options
   */
  public ConnectionOptions setSharedCompletionChannel(boolean shared) {
    this.sharedCompletionChannel = shared;
    return this;
  }

  /**
   * Timeout of address and route resolution, and of closing, in ms (default 1000).
   *
   * @param timeoutMs the value
   * @return these options
   */
  public ConnectionOptions setTimeoutMs(int timeoutMs) {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("timeoutMs must be positive, got " + timeoutMs);
    }
    this.timeoutMs = timeoutMs;
    return this;
  }

  /**
   * Completions taken per native call (default 32).
   *
   * @param drainBatch the value
   * @return these options
   */
  public ConnectionOptions setDrainBatch(int drainBatch) {
    this.drainBatch = checkSize("drainBatch", drainBatch, 1);
    return this;
  }

  /**
   * Completions handled per readiness before yielding the loop to other work (default 1024);
   * a drain also yields after 1 ms, whichever comes first. The rest are drained at the loop's
   * next I/O phase.
   *
   * @param drainBudget the value
   * @return these options
   */
  public ConnectionOptions setDrainBudget(int drainBudget) {
    this.drainBudget = checkSize("drainBudget", drainBudget, 1);
    return this;
  }

  /**
   * How long operations may be in flight with no completion at all before the connection is
   * declared broken and closed, failing them (default 30 s; 0 disables). A safety net for
   * devices or paths that stop answering without reporting an error: RDMA cannot cancel a
   * posted operation, only tear its queue pair down. Receives do not count: they wait for the
   * peer by design.
   *
   * @param completionTimeoutMs the value
   * @return these options
   */
  public ConnectionOptions setCompletionTimeoutMs(int completionTimeoutMs) {
    if (completionTimeoutMs < 0) {
      throw new IllegalArgumentException(
          "completionTimeoutMs must be 0 (off) or positive, got " + completionTimeoutMs);
    }
    this.completionTimeoutMs = completionTimeoutMs;
    return this;
  }

  /**
   * How long a connection may take from the request (or the accept) to ESTABLISHED before its
   * Future fails (default 30 s).
   *
   * @param connectTimeoutMs the value
   * @return these options
   */
  public ConnectionOptions setConnectTimeoutMs(int connectTimeoutMs) {
    if (connectTimeoutMs <= 0) {
      throw new IllegalArgumentException(
          "connectTimeoutMs must be positive, got " + connectTimeoutMs);
    }
    this.connectTimeoutMs = connectTimeoutMs;
    return this;
  }

  /**
   * Keepalive of an idle connection (default 10 s; 0 disables it): when no completion came for
   * an interval and nothing is in flight, the connection probes its peer with a zero-byte read,
   * which the peer's device answers by itself (no receive is consumed, the peer's application
   * sees nothing). A probe is an operation like any other: when the peer is gone it fails once
   * the device's retries run out, or the completion watchdog ({@link #setCompletionTimeoutMs})
   * ends it, whichever comes first, and the connection closes with a reason that names the
   * probe. So a peer whose host lost power, or a cut path, is noticed with nothing in flight:
   * one to two intervals after the last completion, plus that. A busy connection is never
   * probed; {@link CompletionStats#keepAliveProbes()} counts the probes.
   *
   * @param keepAliveMs the interval in ms, or 0
   * @return these options
   */
  public ConnectionOptions setKeepAliveMs(int keepAliveMs) {
    if (keepAliveMs < 0) {
      throw new IllegalArgumentException(
          "keepAliveMs must be 0 (off) or positive, got " + keepAliveMs);
    }
    this.keepAliveMs = keepAliveMs;
    return this;
  }

  /**
   * Hybrid polling (default 0: off). When a poll finds the CQ empty, poll it again on the event
   * loop until a completion comes or it has been empty this long, before sleeping on its fd
   * again. A completion that comes within the spin is taken without an event and the wakeup's
   * syscalls: lower latency for one operation at a time, at the price of the loop's CPU, and of
   * the loop itself: its other fds, timers and tasks wait while it spins (never longer than the
   * drain's 1 ms time budget in a row). For a connection that owns its loop, with a spin about
   * the device's round trip (a few microseconds on an RNIC). Spins on each of the connection's
   * CQs alike.
   *
   * @param busyPollMicros how long to spin on an empty CQ, in microseconds, at most
   *     {@value #MAX_BUSY_POLL_MICROS}; 0 disables it
   * @return these options
   */
  public ConnectionOptions setBusyPollMicros(int busyPollMicros) {
    if (busyPollMicros < 0 || busyPollMicros > MAX_BUSY_POLL_MICROS) {
      throw new IllegalArgumentException("busyPollMicros must be in [0 (off), "
          + MAX_BUSY_POLL_MICROS + "], got " + busyPollMicros);
    }
    this.busyPollMicros = busyPollMicros;
    return this;
  }

  /** @return how long a drain spins on an empty CQ, in microseconds (0: off) */
  public int getBusyPollMicros() {
    return busyPollMicros;
  }

  /** @return the keepalive interval in ms (0: off) */
  public int getKeepAliveMs() {
    return keepAliveMs;
  }

  /** @return the connect timeout in ms */
  public int getConnectTimeoutMs() {
    return connectTimeoutMs;
  }

  /** @return the completion watchdog's timeout in ms (0: off) */
  public int getCompletionTimeoutMs() {
    return completionTimeoutMs;
  }

  /** @return the completion queue size */
  public int getCqSize() {
    return cqSize;
  }

  /** @return the send queue size */
  public int getSqSize() {
    return sqSize;
  }

  /** @return the receive queue size */
  public int getRqSize() {
    return rqSize;
  }

  /** @return the receive CQ size (0: receives on the main CQ) */
  public int getRcqSize() {
    return rcqSize;
  }

  /** @return whether both CQs share one completion channel */
  public boolean isSharedCompletionChannel() {
    return sharedCompletionChannel;
  }

  /** @return the resolution and close timeout in ms */
  public int getTimeoutMs() {
    return timeoutMs;
  }

  /** @return completions taken per native call */
  public int getDrainBatch() {
    return drainBatch;
  }

  /** @return completions handled per readiness */
  public int getDrainBudget() {
    return drainBudget;
  }

  /**
   * These options as JSON, with the keys the JSON constructor reads.
   *
   * @return a new object
   */
  public JsonObject toJson() {
    return ConnectionOptionsConverter.toJson(this);
  }

  @Override
  public String toString() {
    return "ConnectionOptions" + toJson().encode();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConnectionOptions other && toJson().equals(other.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  private static int checkSize(String name, int value, int min) {
    if (value < min || value > MAX_QUEUE_SIZE) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + MAX_QUEUE_SIZE + "], got " + value);
    }
    return value;
  }
}
