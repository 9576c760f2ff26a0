package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Sizes of a shared receive queue, and how its receive CQ is drained. At most
 * min({@code rqSize}, {@code rcqSize}) receives are posted at once (the rest wait in call order
 * and go out as messages arrive), so the queue's receive CQ is never overrun.
 *
 * <p>A Vert.x data object like {@link ConnectionOptions}: from JSON with the setters' names as
 * keys ({@code {"rqSize": 512}}), back with {@link #toJson()}.
 */
public class SharedReceiveQueueOptions {

  private int rqSize = 256;
  private int rcqSize = 256;
  private int drainBatch = 32;
  private int drainBudget = 1024;

  /** The defaults: 256 receives, a receive CQ of 256, batches of 32, a budget of 1024. */
  public SharedReceiveQueueOptions() {
  }

  /**
   * The options in {@code json}, the defaults for keys it lacks, each checked by its setter.
   *
   * @param json keys named as the setters
   * @throws IllegalArgumentException for an unknown key, or a value of the wrong type or range
   */
  public SharedReceiveQueueOptions(JsonObject json) {
    Objects.requireNonNull(json, "json");
    Set<String> unknown = new TreeSet<>(json.fieldNames());
    unknown.removeAll(toJson().fieldNames());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown SharedReceiveQueueOptions keys " + unknown
          + "; the keys are " + new TreeSet<>(toJson().fieldNames()));
    }
    try {
      setRqSize(json.getInteger("rqSize", rqSize));
      setRcqSize(json.getInteger("rcqSize", rcqSize));
      setDrainBatch(json.getInteger("drainBatch", drainBatch));
      setDrainBudget(json.getInteger("drainBudget", drainBudget));
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("SharedReceiveQueueOptions from JSON: numbers expected: "
          + json, e);
    }
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public SharedReceiveQueueOptions(SharedReceiveQueueOptions other) {
    this(other.toJson());
  }

  private static int size(String name, int value) {
    if (value < 1 || value > ConnectionOptions.MAX_QUEUE_SIZE) {
      throw new IllegalArgumentException(name + " must be in [1, "
          + ConnectionOptions.MAX_QUEUE_SIZE + "], got " + value);
    }
    return value;
  }

  /**
   * How many receives the queue holds (the SRQ's max_wr).
   *
   * @param rqSize in [1, {@link ConnectionOptions#MAX_QUEUE_SIZE}]
   * @return this
   */
  public SharedReceiveQueueOptions setRqSize(int rqSize) {
    this.rqSize = size("rqSize", rqSize);
    return this;
  }

  /**
   * The size of the queue's receive CQ, where the receives of every attached connection
   * complete (one CQ, one fd on the loop, for all of them). Never 0: without a CQ of its own
   * the queue's receives would complete on each connection's CQ.
   *
   * @param rcqSize in [1, {@link ConnectionOptions#MAX_QUEUE_SIZE}]
   * @return this
   */
  public SharedReceiveQueueOptions setRcqSize(int rcqSize) {
    this.rcqSize = size("rcqSize", rcqSize);
    return this;
  }

  /**
   * Completions taken per native call, as {@link ConnectionOptions#setDrainBatch}.
   *
   * @param drainBatch in [1, 1024]
   * @return this
   */
  public SharedReceiveQueueOptions setDrainBatch(int drainBatch) {
    if (drainBatch < 1 || drainBatch > 1024) {
      throw new IllegalArgumentException("drainBatch must be in [1, 1024], got " + drainBatch);
    }
    this.drainBatch = drainBatch;
    return this;
  }

  /**
   * Completions delivered before the loop is yielded, as {@link ConnectionOptions#setDrainBudget}.
   *
   * @param drainBudget at least 1
   * @return this
   */
  public SharedReceiveQueueOptions setDrainBudget(int drainBudget) {
    if (drainBudget < 1) {
      throw new IllegalArgumentException("drainBudget must be at least 1, got " + drainBudget);
    }
    this.drainBudget = drainBudget;
    return this;
  }

  /** @return the number of receives the queue holds */
  public int getRqSize() {
    return rqSize;
  }

  /** @return the size of the queue's receive CQ */
  public int getRcqSize() {
    return rcqSize;
  }

  /** @return completions per native call */
  public int getDrainBatch() {
    return drainBatch;
  }

  /** @return completions before the loop is yielded */
  public int getDrainBudget() {
    return drainBudget;
  }

  /**
   * The options as JSON, keys named as the setters.
   *
   * @return a new JsonObject
   */
  public JsonObject toJson() {
    return new JsonObject().put("rqSize", rqSize).put("rcqSize", rcqSize)
        .put("drainBatch", drainBatch).put("drainBudget", drainBudget);
  }

  @Override
  public String toString() {
    return "SharedReceiveQueueOptions" + toJson().encode();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SharedReceiveQueueOptions other && toJson().equals(other.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }
}
