package dev.rpma.vertx;

import static dev.rpma.vertx.OptionChecks.inRange;

import io.vertx.codegen.annotations.DataObject;
import io.vertx.codegen.json.annotations.JsonGen;
import io.vertx.core.json.JsonObject;

/**
 * Settings of a connection, on either side: queue sizes, the CM timeout, how completions are
 * delivered, and how they are drained.
 *
 * <p>Queue sizes bound what is in flight: the library never has more signalled operations
 * outstanding than the CQ holds (a CQ overrun would kill it), and keeps the rest waiting in
 * order until completions make room.
 *
 * <p>A Vert.x data object: from JSON with the setters' names as keys
 * ({@code {"cqSize": 256, "connectTimeoutMs": 5000}}), back with {@link #toJson()}. A key the
 * options do not have is refused, so a typo cannot leave a default silently in place; in a
 * verticle's {@code config()} shared with other settings, keep them under a key of their own and
 * read them with {@link #fromConfig(JsonObject, String) fromConfig(config(), "connection")}.
 *
 * @since 0.1.0
 */
@DataObject
@JsonGen(publicConverter = false)
public class ConnectionOptions {

  /** The largest queue size accepted: far beyond any device's limit, still a clear error. */
  public static final int MAX_QUEUE_SIZE = 1 << 16;

  /** The longest busy-poll spin accepted: past a second the loop is no event loop any more. */
  public static final int MAX_BUSY_POLL_MICROS = 1_000_000;

  /** The default completion queue size. */
  public static final int DEFAULT_CQ_SIZE = 64;
  /** The default send queue size. */
  public static final int DEFAULT_SQ_SIZE = 64;
  /** The default receive queue size. */
  public static final int DEFAULT_RQ_SIZE = 64;
  /** The default receive CQ size: 0, receives complete on the main CQ. */
  public static final int DEFAULT_RCQ_SIZE = 0;
  /** By default each CQ has a completion channel of its own. */
  public static final boolean DEFAULT_SHARED_COMPLETION_CHANNEL = false;
  /** The default close timeout in ms. */
  public static final int DEFAULT_TIMEOUT_MS = 1000;
  /** The default number of completions taken per native call. */
  public static final int DEFAULT_DRAIN_BATCH = 32;
  /** The default number of completions handled per readiness. */
  public static final int DEFAULT_DRAIN_BUDGET = 1024;
  /** The default completion watchdog timeout in ms. */
  public static final int DEFAULT_COMPLETION_TIMEOUT_MS = 30_000;
  /** The default connect timeout in ms. */
  public static final int DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
  /** The default keepalive interval in ms. */
  public static final int DEFAULT_KEEP_ALIVE_MS = 10_000;
  /** Busy polling is off by default. */
  public static final int DEFAULT_BUSY_POLL_MICROS = 0;

  private int cqSize = DEFAULT_CQ_SIZE;
  private int sqSize = DEFAULT_SQ_SIZE;
  private int rqSize = DEFAULT_RQ_SIZE;
  private int rcqSize = DEFAULT_RCQ_SIZE;
  private boolean sharedCompletionChannel = DEFAULT_SHARED_COMPLETION_CHANNEL;
  private int timeoutMs = DEFAULT_TIMEOUT_MS;
  private int drainBatch = DEFAULT_DRAIN_BATCH;
  private int drainBudget = DEFAULT_DRAIN_BUDGET;
  private int completionTimeoutMs = DEFAULT_COMPLETION_TIMEOUT_MS;
  private int connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
  private int keepAliveMs = DEFAULT_KEEP_ALIVE_MS;
  private int busyPollMicros = DEFAULT_BUSY_POLL_MICROS;

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
    OptionChecks.keysAndTypes("ConnectionOptions", json, new ConnectionOptions().toJson());
    ConnectionOptionsConverter.fromJson(json, this);
  }

  /**
   * The options kept under {@code key} of a config shared with other settings, e.g. a verticle's
   * {@code config()} of {@code {"http": {...}, "connection": {"cqSize": 256}}}: the rest of the
   * config is not read; under {@code key}, every key must be an option, as for
   * {@link #ConnectionOptions(JsonObject)}.
   *
   * @param config the whole config
   * @param key where the options are
   * @return the options there, the defaults if the config lacks {@code key}
   * @throws IllegalArgumentException if the value under {@code key} is no JSON object, or has
   *     an unknown key or a bad value
   */
  public static ConnectionOptions fromConfig(JsonObject config, String key) {
    return new ConnectionOptions(OptionChecks.section("ConnectionOptions", config, key));
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public ConnectionOptions(ConnectionOptions other) {
    this(other.toJson());
  }

  /**
   * Completion queue size (default {@value #DEFAULT_CQ_SIZE}): bounds the operations in flight.
   *
   * @param cqSize the value
   * @return these options
   */
  public ConnectionOptions setCqSize(int cqSize) {
    this.cqSize = inRange("cqSize", cqSize, 1, MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * Send queue size (default {@value #DEFAULT_SQ_SIZE}): bounds reads, writes, flushes and
   * sends in flight.
   *
   * @param sqSize the value
   * @return these options
   */
  public ConnectionOptions setSqSize(int sqSize) {
    this.sqSize = inRange("sqSize", sqSize, 1, MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * Receive queue size (default {@value #DEFAULT_RQ_SIZE}): bounds the posted receives.
   *
   * @param rqSize the value
   * @return these options
   */
  public ConnectionOptions setRqSize(int rqSize) {
    this.rqSize = inRange("rqSize", rqSize, 1, MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * Size of a separate receive CQ; 0 (default) delivers receives on the main CQ.
   *
   * @param rcqSize the value
   * @return these options
   */
  public ConnectionOptions setRcqSize(int rcqSize) {
    this.rcqSize = inRange("rcqSize", rcqSize, 0, MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * One completion channel (one fd) for the main and the receive CQ (default
   * {@value #DEFAULT_SHARED_COMPLETION_CHANNEL}).
   *
   * @param shared the value
   * @return these options
   */
  public ConnectionOptions setSharedCompletionChannel(boolean shared) {
    this.sharedCompletionChannel = shared;
    return this;
  }

  /**
   * How long a close waits for the peer's answer to the disconnect, in ms (default
   * {@value #DEFAULT_TIMEOUT_MS}). A connect's address and route resolution is bounded by
   * {@link #setConnectTimeoutMs} instead.
   *
   * @param timeoutMs the value
   * @return these options
   */
  public ConnectionOptions setTimeoutMs(int timeoutMs) {
    this.timeoutMs = inRange("timeoutMs", timeoutMs, 1, Integer.MAX_VALUE);
    return this;
  }

  /**
   * Completions taken per native call (default {@value #DEFAULT_DRAIN_BATCH}).
   *
   * @param drainBatch the value
   * @return these options
   */
  public ConnectionOptions setDrainBatch(int drainBatch) {
    this.drainBatch = inRange("drainBatch", drainBatch, 1, MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * Completions handled per readiness before yielding the loop to other work (default
   * {@value #DEFAULT_DRAIN_BUDGET});
   * a drain also yields after 1 ms, whichever comes first. The rest are drained at the loop's
   * next I/O phase.
   *
   * @param drainBudget the value
   * @return these options
   */
  public ConnectionOptions setDrainBudget(int drainBudget) {
    this.drainBudget = inRange("drainBudget", drainBudget, 1, MAX_QUEUE_SIZE);
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
    this.completionTimeoutMs =
        inRange("completionTimeoutMs", completionTimeoutMs, 0, Integer.MAX_VALUE);
    return this;
  }

  /**
   * How long a connect may take, address and route resolution included, until ESTABLISHED
   * (an accept: from the accept to ESTABLISHED) before its Future fails, with
   * {@link RpmaUnreachableException} for a connect (default
   * {@value #DEFAULT_CONNECT_TIMEOUT_MS}).
   *
   * @param connectTimeoutMs the value
   * @return these options
   */
  public ConnectionOptions setConnectTimeoutMs(int connectTimeoutMs) {
    this.connectTimeoutMs =
        inRange("connectTimeoutMs", connectTimeoutMs, 1, Integer.MAX_VALUE);
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
    this.keepAliveMs = inRange("keepAliveMs", keepAliveMs, 0, Integer.MAX_VALUE);
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

  /** @return the close timeout in ms */
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
    JsonObject json = new JsonObject();
    ConnectionOptionsConverter.toJson(this, json);
    return json;
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
}
