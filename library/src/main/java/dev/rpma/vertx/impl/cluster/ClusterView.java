package dev.rpma.vertx.impl.cluster;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.List;

/**
 * What the directory asks of the cluster: this node's id, the members as the cluster manager
 * sees them now, and the directory's map. An interface so the directory's logic can be tested
 * over a member list a test controls; {@link #of} is the cluster manager's.
 */
interface ClusterView {

  /** The cluster manager's map that holds every directory's entries, by name. */
  String MAP_NAME = "vertx-rpma.directory";

  String nodeId();

  /** Whether this node is in the cluster (false once its manager leaves or shuts down). */
  boolean active();

  /** The nodes the cluster manager counts as members now (a local read, no network). */
  List<String> nodes();

  /** The directory's map: name to an encoded {@link Publication}. */
  Future<AsyncMap<String, String>> map();

  static ClusterView of(ClusterManager manager) {
    return new ClusterView() {
      private Future<AsyncMap<String, String>> map;

      @Override
      public String nodeId() {
        return manager.getNodeId();
      }

      @Override
      public boolean active() {
        return manager.isActive();
      }

      @Override
      public List<String> nodes() {
        return manager.getNodes();
      }

      @Override
      public synchronized Future<AsyncMap<String, String>> map() {
        if (map == null || map.failed()) {
          Promise<AsyncMap<String, String>> promise = Promise.promise();
          try {
            manager.getAsyncMap(MAP_NAME, promise);
          } catch (RuntimeException e) { // a manager that left or is leaving (Hazelcast's)
            promise.tryFail(e);
          }
          map = promise.future();
        }
        return map;
      }
    };
  }
}
