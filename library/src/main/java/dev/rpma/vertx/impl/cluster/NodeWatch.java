package dev.rpma.vertx.impl.cluster;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Departures read from successive member lists: a node in the previous list and not in this one
 * has left, as the cluster manager sees it. (A cluster manager takes one node listener, which
 * Vert.x itself holds, so the directory reads the list instead of listening.) Pure; the caller
 * serializes its calls.
 */
final class NodeWatch {

  private Set<String> members = Set.of();

  /** The nodes that left since the last call; the first call's answer is empty. */
  Set<String> departed(List<String> now) {
    Set<String> current = new HashSet<>(now);
    Set<String> gone = new HashSet<>(members);
    gone.removeAll(current);
    members = current;
    return gone;
  }
}
