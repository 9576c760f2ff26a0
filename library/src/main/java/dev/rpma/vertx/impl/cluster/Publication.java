package dev.rpma.vertx.impl.cluster;

import dev.rpma.vertx.RpmaPublished;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.UUID;

/**
 * One entry of the directory's map: the {@link RpmaPublished} and an id of this publication, so
 * that withdrawing it (a remove-if-equal of the exact text) leaves alone a later publication
 * under the same name, even of the same server. Stored as JSON text: a String is a value every
 * cluster manager keeps, and equal texts compare equal in a remove-if-present.
 */
record Publication(RpmaPublished published, String id, String encoded) {

  /** The version of the encoding, checked when read. */
  private static final int VERSION = 1;

  static Publication of(RpmaPublished published) {
    String id = UUID.randomUUID().toString();
    JsonObject json = new JsonObject()
        .put("v", VERSION)
        .put("id", id)
        .put("host", published.host())
        .put("port", published.port())
        .put("node", published.nodeId())
        .put("offer", published.offer());
    return new Publication(published, id, json.encode());
  }

  /**
   * The entry stored under {@code name}; null if it is not one this version wrote (an entry
   * nobody can connect by is skipped, not fatal to a list).
   */
  static Publication decode(String name, String encoded) {
    try {
      JsonObject json = new JsonObject(encoded);
      if (json.getInteger("v", 0) != VERSION) {
        return null;
      }
      RpmaPublished published = new RpmaPublished(name, json.getString("host"),
          json.getInteger("port", 0), json.getString("node"), json.getBinary("offer"));
      return new Publication(published, json.getString("id"), encoded);
    } catch (DecodeException | ClassCastException | IllegalArgumentException e) {
      return null;
    }
  }

  String nodeId() {
    return published.nodeId();
  }
}
