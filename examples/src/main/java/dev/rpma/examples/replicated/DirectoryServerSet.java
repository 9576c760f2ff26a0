package dev.rpma.examples.replicated;

import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaPublished;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The servers published in the cluster under a name prefix ({@link RpmaDirectory}); the writer
 * connects to each by its name, so that its connection ends as soon as the cluster manager
 * sees the server's node leave, and records a new set in the cluster's map
 * {@value #SETS_MAP} (key: the prefix), where a writer taking over finds it.
 *
 * <p>A server lost and back (its host rebooted) is published again under the same name by a
 * new node, while the old node may still be a member until the cluster manager's heartbeat
 * timeout: the old node's publication is passed over, since a connection made by it would be
 * ended when that node is finally seen gone. So is any publication the writer lost a server
 * by: a server that is still up and offers itself again publishes anew (ReplicaServer,
 * --rejoin-from), which is news.
 */
final class DirectoryServerSet implements ServerSet {

  static final String SETS_MAP = "replicated-log.sets";

  private final Vertx vertx;
  private final RpmaDirectory directory;
  private final String prefix;
  private final Map<ServerAddress, String> names = new ConcurrentHashMap<>();
  private final Map<ServerAddress, RpmaPublished> lastSeen = new ConcurrentHashMap<>();
  private final Set<RpmaPublished> departed = ConcurrentHashMap.newKeySet();

  DirectoryServerSet(Vertx vertx, RpmaDirectory directory, String prefix) {
    this.vertx = vertx;
    this.directory = directory;
    this.prefix = prefix;
  }

  @Override
  public Future<List<ServerAddress>> servers() {
    return directory.list(prefix).map(listed -> {
      List<RpmaPublished> published = listed.stream()
          .filter(p -> !departed.contains(p)).toList();
      List<ServerAddress> found = new ArrayList<>();
      for (RpmaPublished one : published) {
        ServerAddress address = new ServerAddress(one.host(), one.port());
        names.put(address, one.name());
        if (!one.equals(lastSeen.put(address, one))) {
          System.out.println("replicated: found by name in the cluster: " + one.name() + " at "
              + address + " (node " + one.nodeId() + ")");
        }
        found.add(address);
      }
      return found;
    });
  }

  @Override
  public void lost(ServerAddress server) {
    RpmaPublished gone = lastSeen.remove(server);
    if (gone != null) {
      departed.add(gone);
    }
  }

  @Override
  public Future<RpmaConnection> connect(RpmaPeer peer, ServerAddress server,
      RpmaConnectOptions options) {
    String name = names.get(server);
    if (name == null) {
      return ServerSet.super.connect(peer, server, options);
    }
    return directory.connect(peer, name, options);
  }

  @Override
  public Future<Void> record(long epoch, List<ServerAddress> current) {
    String value = "epoch " + epoch + ": " + String.join(",", current.stream()
        .map(s -> names.getOrDefault(s, s.toString())).toList());
    System.out.println("replicated: the set is now " + value + " (in the cluster map "
        + SETS_MAP + ")");
    return vertx.sharedData().<String, String>getAsyncMap(SETS_MAP)
        .compose(map -> map.put(prefix, value));
  }
}
