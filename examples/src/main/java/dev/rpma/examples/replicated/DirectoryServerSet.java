package dev.rpma.examples.replicated;

import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaPublished;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The servers published in the cluster under a name prefix ({@link RpmaDirectory}); the writer
 * connects to each by its name, so that its connection ends as soon as the cluster manager
 * sees the server's node leave, and records a new set in the cluster's map
 * {@value #SETS_MAP} (key: the prefix), where a writer taking over finds it.
 */
final class DirectoryServerSet implements ServerSet {

  static final String SETS_MAP = "replicated-log.sets";

  private final Vertx vertx;
  private final RpmaDirectory directory;
  private final String prefix;
  private final Map<ServerAddress, String> names = new ConcurrentHashMap<>();

  DirectoryServerSet(Vertx vertx, RpmaDirectory directory, String prefix) {
    this.vertx = vertx;
    this.directory = directory;
    this.prefix = prefix;
  }

  @Override
  public Future<List<ServerAddress>> servers() {
    return directory.list(prefix).map(published -> {
      for (RpmaPublished one : published) {
        names.put(new ServerAddress(one.host(), one.port()), one.name());
      }
      System.out.println("replicated: found by name in the cluster: " + published.stream()
          .map(p -> p.name() + " at " + p.host() + ":" + p.port()).toList());
      return published.stream().map(p -> new ServerAddress(p.host(), p.port())).toList();
    });
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
