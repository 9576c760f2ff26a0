package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link ConnectionOptions} to and from JSON, as Vert.x's generated converters do for its data
 * objects: every key through its setter (so checked as there), unknown keys refused by name.
 */
final class ConnectionOptionsConverter {

  private ConnectionOptionsConverter() {
  }

  /** Sets on {@code o} what {@code json} has; throws naming an unknown key or a wrong type. */
  static void fromJson(JsonObject json, ConnectionOptions o) {
    Objects.requireNonNull(json, "json");
    Set<String> unknown = new TreeSet<>(json.fieldNames());
    unknown.removeAll(toJson(o).fieldNames());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown ConnectionOptions keys " + unknown
          + "; the keys are " + new TreeSet<>(toJson(o).fieldNames()));
    }
    try {
      o.setCqSize(json.getInteger("cqSize", o.getCqSize()));
      o.setSqSize(json.getInteger("sqSize", o.getSqSize()));
      o.setRqSize(json.getInteger("rqSize", o.getRqSize()));
      o.setRcqSize(json.getInteger("rcqSize", o.getRcqSize()));
      o.setSharedCompletionChannel(
          json.getBoolean("sharedCompletionChannel", o.isSharedCompletionChannel()));
      o.setTimeoutMs(json.getInteger("timeoutMs", o.getTimeoutMs()));
      o.setDrainBatch(json.getInteger("drainBatch", o.getDrainBatch()));
      o.setDrainBudget(json.getInteger("drainBudget", o.getDrainBudget()));
      o.setCompletionTimeoutMs(json.getInteger("completionTimeoutMs",
          o.getCompletionTimeoutMs()));
      o.setConnectTimeoutMs(json.getInteger("connectTimeoutMs", o.getConnectTimeoutMs()));
      o.setKeepAliveMs(json.getInteger("keepAliveMs", o.getKeepAliveMs()));
      o.setBusyPollMicros(json.getInteger("busyPollMicros", o.getBusyPollMicros()));
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("ConnectionOptions from JSON: a value of the wrong type"
          + " (numbers for sizes and times, a boolean for sharedCompletionChannel): " + json, e);
    }
  }

  /** Every option of {@code o}, keyed as the setters are named. */
  static JsonObject toJson(ConnectionOptions o) {
    return new JsonObject()
        .put("cqSize", o.getCqSize())
        .put("sqSize", o.getSqSize())
        .put("rqSize", o.getRqSize())
        .put("rcqSize", o.getRcqSize())
        .put("sharedCompletionChannel", o.isSharedCompletionChannel())
        .put("timeoutMs", o.getTimeoutMs())
        .put("drainBatch", o.getDrainBatch())
        .put("drainBudget", o.getDrainBudget())
        .put("completionTimeoutMs", o.getCompletionTimeoutMs())
        .put("connectTimeoutMs", o.getConnectTimeoutMs())
        .put("keepAliveMs", o.getKeepAliveMs())
        .put("busyPollMicros", o.getBusyPollMicros());
  }
}
