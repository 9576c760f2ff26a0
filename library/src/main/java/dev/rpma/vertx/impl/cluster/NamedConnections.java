package dev.rpma.vertx.impl.cluster;

import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPublished;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The connections a directory made by name, each with the publication it reached, until it
 * ends: those of a departed node are taken out and ended together. Any thread.
 */
final class NamedConnections {

  /** A connection and what it connected to. */
  record Named(RpmaConnection connection, RpmaPublished published) {
  }

  private final Map<RpmaConnection, RpmaPublished> open = new IdentityHashMap<>();

  synchronized void add(RpmaConnection connection, RpmaPublished published) {
    open.put(connection, published);
  }

  synchronized void remove(RpmaConnection connection) {
    open.remove(connection);
  }

  /** Takes out the connections to servers {@code nodeId} published. */
  synchronized List<Named> takeOfNode(String nodeId) {
    List<Named> taken = new ArrayList<>();
    open.entrySet().removeIf(e -> {
      if (e.getValue().nodeId().equals(nodeId)) {
        taken.add(new Named(e.getKey(), e.getValue()));
        return true;
      }
      return false;
    });
    return taken;
  }

  synchronized void clear() {
    open.clear();
  }

  synchronized int size() {
    return open.size();
  }
}
