package dev.rpma.vertx.impl.cluster;

import dev.rpma.vertx.RpmaDirectory;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.Objects;

/** {@link RpmaDirectory#create}: a clustered Vert.x's cluster manager, or a clear refusal. */
public final class Directories {

  private Directories() {
  }

  /** See {@link RpmaDirectory#create(Vertx)}. */
  public static RpmaDirectory create(Vertx vertx) {
    Objects.requireNonNull(vertx, "vertx");
    if (!vertx.isClustered() || !(vertx instanceof VertxInternal internal)
        || internal.clusterManager() == null) {
      throw new IllegalStateException("RpmaDirectory needs a clustered Vert.x, and this one is"
          + " not clustered: make it with Vertx.builder().withClusterManager(manager)"
          + ".buildClustered() (e.g. io.vertx:vertx-hazelcast's HazelcastClusterManager), or"
          + " connect without a directory by the server's address: RpmaPeer.connect(port, host)");
    }
    return new DirectoryImpl(internal, ClusterView.of(internal.clusterManager()), Links.LIBRARY,
        RpmaDirectory.WATCH_PERIOD_MS);
  }
}
