package dev.rpma.vertx;

import static dev.rpma.vertx.OptionChecks.inRange;

import io.vertx.codegen.annotations.DataObject;
import io.vertx.codegen.json.annotations.JsonGen;
import io.vertx.core.json.JsonObject;

/**
 * Sizes of a shared receive queue, and how its receive CQ is drained. At most
 * min({@code rqSize}, {@code rcqSize}) receives are posted at once (the rest wait in call order
 * and go out as messages arrive), so the queue's receive CQ is never overrun.
 *
 * <p>A Vert.x data object like {@link ConnectionOptions}: from JSON with the setters' names as
 * keys ({@code {"rqSize": 512}}), unknown keys refused, back with {@link #toJson()}; from a
 * shared config with {@link #fromConfig(JsonObject, String)}.
 *
 * @since 0.1.0
 */
@DataObject
@JsonGen(publicConverter = false)
public class SharedReceiveQueueOptions {

  /** The default number of receives the queue holds. */
  public static final int DEFAULT_RQ_SIZE = 256;
  /** The default size of the queue's receive CQ. */
  public static final int DEFAULT_RCQ_SIZE = 256;
  /** The default number of completions taken per native call. */
  public static final int DEFAULT_DRAIN_BATCH = 32;
  /** The default number of completions delivered before the loop is yielded. */
  public static final int DEFAULT_DRAIN_BUDGET = 1024;
  /** The largest drain batch accepted. */
  public static final int MAX_DRAIN_BATCH = 1024;

  private int rqSize = DEFAULT_RQ_SIZE;
  private int rcqSize = DEFAULT_RCQ_SIZE;
  private int drainBatch = DEFAULT_DRAIN_BATCH;
  private int drainBudget = DEFAULT_DRAIN_BUDGET;

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
    OptionChecks.keysAndTypes("SharedReceiveQueueOptions", json,
        new SharedReceiveQueueOptions().toJson());
    SharedReceiveQueueOptionsConverter.fromJson(json, this);
  }

  /**
   * The options kept under {@code key} of a config shared with other settings, as
   * {@link ConnectionOptions#fromConfig(JsonObject, String)}.
   *
   * @param config the whole config
   * @param key where the options are
   * @return the options there, the defaults if the config lacks {@code key}
   * @throws IllegalArgumentException if the value under {@code key} is no JSON object, or has
   *     an unknown key or a bad value
   */
  public static SharedReceiveQueueOptions fromConfig(JsonObject config, String key) {
    return new SharedReceiveQueueOptions(
        OptionChecks.section("SharedReceiveQueueOptions", config, key));
  }

  /**
   * A copy.
   *
   * @param other the options to copy
   */
  public SharedReceiveQueueOptions(SharedReceiveQueueOptions other) {
    this(other.toJson());
  }

  /**
   * How many receives the queue holds (the SRQ's max_wr).
   *
   * @param rqSize in [1, {@link ConnectionOptions#MAX_QUEUE_SIZE}]
   * @return this
   */
  public SharedReceiveQueueOptions setRqSize(int rqSize) {
    this.rqSize = inRange("rqSize", rqSize, 1, ConnectionOptions.MAX_QUEUE_SIZE);
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
    this.rcqSize = inRange("rcqSize", rcqSize, 1, ConnectionOptions.MAX_QUEUE_SIZE);
    return this;
  }

  /**
   * Completions taken per native call, as {@link ConnectionOptions#setDrainBatch}.
   *
   * @param drainBatch in [1, {@value #MAX_DRAIN_BATCH}]
   * @return this
   */
  public SharedReceiveQueueOptions setDrainBatch(int drainBatch) {
    this.drainBatch = inRange("drainBatch", drainBatch, 1, MAX_DRAIN_BATCH);
    return this;
  }

  /**
   * Completions delivered before the loop is yielded, as {@link ConnectionOptions#setDrainBudget}.
   *
   * @param drainBudget at least 1
   * @return this
   */
  public SharedReceiveQueueOptions setDrainBudget(int drainBudget) {
    this.drainBudget = inRange("drainBudget", drainBudget, 1, Integer.MAX_VALUE);
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
    JsonObject json = new JsonObject();
    SharedReceiveQueueOptionsConverter.toJson(this, json);
    return json;
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
