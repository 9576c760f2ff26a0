package dev.rpma.vertx;

/**
 * Settings of a connection, on either side: queue sizes, the CM timeout, how completions are
 * delivered, and how they are drained.
 *
 * <p>Queue sizes bound what is in flight: the library never has more signalled operations
 * outstanding than the CQ holds (a CQ overrun would kill it), and keeps the rest waiting in
 * order until completions make room.
 */
public class ConnectionOptions {

  /** The largest queue size accepted: far beyond any device's limit, still a clear error. */
  public static final int MAX_QUEUE_SIZE = 1 << 16;

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

  public ConnectionOptions() {
  }

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
  }

  /** Completion queue size (default 64): bounds the operations in flight. */
  public ConnectionOptions setCqSize(int cqSize) {
    this.cqSize = checkSize("cqSize", cqSize, 1);
    return this;
  }

  /** Send queue size (default 64): bounds reads, writes, flushes and sends in flight. */
  public ConnectionOptions setSqSize(int sqSize) {
    this.sqSize = checkSize("sqSize", sqSize, 1);
    return this;
  }

  /** Receive queue size (default 64): bounds the posted receives. */
  public ConnectionOptions setRqSize(int rqSize) {
    this.rqSize = checkSize("rqSize", rqSize, 1);
    return this;
  }

  /** Size of a separate receive CQ; 0 (default) delivers receives on the main CQ. */
  public ConnectionOptions setRcqSize(int rcqSize) {
    this.rcqSize = checkSize("rcqSize", rcqSize, 0);
    return this;
  }

  /** One completion channel (one fd) for the main and the receive CQ (default false). */
  public ConnectionOptions setSharedCompletionChannel(boolean shared) {
    this.sharedCompletionChannel = shared;
    return this;
  }

  /** Timeout of address and route resolution, and of closing, in ms (default 1000). */
  public ConnectionOptions setTimeoutMs(int timeoutMs) {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("timeoutMs must be positive, got " + timeoutMs);
    }
    this.timeoutMs = timeoutMs;
    return this;
  }

  /** Completions taken per native call (default 32). */
  public ConnectionOptions setDrainBatch(int drainBatch) {
    this.drainBatch = checkSize("drainBatch", drainBatch, 1);
    return this;
  }

  /**
   * Completions handled per readiness before yielding the loop to other work (default 1024);
   * the rest are drained in a task queued on the same loop.
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
   */
  public ConnectionOptions setConnectTimeoutMs(int connectTimeoutMs) {
    if (connectTimeoutMs <= 0) {
      throw new IllegalArgumentException(
          "connectTimeoutMs must be positive, got " + connectTimeoutMs);
    }
    this.connectTimeoutMs = connectTimeoutMs;
    return this;
  }

  public int getConnectTimeoutMs() {
    return connectTimeoutMs;
  }

  public int getCompletionTimeoutMs() {
    return completionTimeoutMs;
  }

  public int getCqSize() {
    return cqSize;
  }

  public int getSqSize() {
    return sqSize;
  }

  public int getRqSize() {
    return rqSize;
  }

  public int getRcqSize() {
    return rcqSize;
  }

  public boolean isSharedCompletionChannel() {
    return sharedCompletionChannel;
  }

  public int getTimeoutMs() {
    return timeoutMs;
  }

  public int getDrainBatch() {
    return drainBatch;
  }

  public int getDrainBudget() {
    return drainBudget;
  }

  private static int checkSize(String name, int value, int min) {
    if (value < min || value > MAX_QUEUE_SIZE) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + MAX_QUEUE_SIZE + "], got " + value);
    }
    return value;
  }
}
