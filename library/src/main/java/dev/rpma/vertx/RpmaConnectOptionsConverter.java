package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link RpmaConnectOptions} to and from JSON, in {@link ConnectionOptionsConverter}'s style:
 * every key through its setter (so checked as there), unknown keys refused by name. The shared
 * receive queue is a live object and has no key.
 */
final class RpmaConnectOptionsConverter {

  private static final Set<String> KEYS = Set.of("host", "port", "privateData",
      "connectionOptions");

  private RpmaConnectOptionsConverter() {
  }

  /** Sets on {@code o} what {@code json} has; throws naming an unknown key or a wrong type. */
  static void fromJson(JsonObject json, RpmaConnectOptions o) {
    Objects.requireNonNull(json, "json");
    Set<String> unknown = new TreeSet<>(json.fieldNames());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown RpmaConnectOptions keys " + unknown
          + "; the keys are " + new TreeSet<>(KEYS) + (unknown.contains("sharedReceiveQueue")
              ? " (the shared receive queue is a live object: set it with"
                  + " setSharedReceiveQueue)" : ""));
    }
    try {
      if (json.containsKey("host")) {
        o.setHost(json.getString("host"));
      }
      if (json.containsKey("port")) {
        o.setPort(json.getInteger("port"));
      }
      if (json.containsKey("privateData")) {
        o.setPrivateData(privateData(json));
      }
      if (json.containsKey("connectionOptions")) {
        JsonObject options = json.getJsonObject("connectionOptions");
        o.setConnectionOptions(options == null ? null : new ConnectionOptions(options));
      }
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("RpmaConnectOptions from JSON: a value of the wrong type"
          + " (a string for host, a number for port, base64 for privateData, an object for"
          + " connectionOptions): " + json, e);
    }
  }

  /** The private data's base64, decoded as Vert.x encodes binary; a bad one said so. */
  private static byte[] privateData(JsonObject json) {
    try {
      return json.getBinary("privateData");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("privateData must be base64, as Vert.x writes binary"
          + " in JSON (JsonObject.put(key, bytes)): " + e.getMessage(), e);
    }
  }

  /** Every option of {@code o} but the queue, keyed as the setters are named. */
  static JsonObject toJson(RpmaConnectOptions o) {
    JsonObject json = new JsonObject();
    if (o.getHost() != null) {
      json.put("host", o.getHost());
    }
    if (o.getPort() != 0) {
      json.put("port", o.getPort());
    }
    if (o.getPrivateData() != null) {
      json.put("privateData", o.getPrivateData());
    }
    return json.put("connectionOptions", o.getConnectionOptions().toJson());
  }
}
