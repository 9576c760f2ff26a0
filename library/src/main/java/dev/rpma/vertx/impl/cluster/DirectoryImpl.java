package dev.rpma.vertx.impl.cluster;

import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaNothingPublishedException;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaPublished;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A directory over the cluster manager's map (see {@link RpmaDirectory}): its own publications
 * withdrawn with their servers, the member list read every period for departures, which end
 * the connections made by name to the departed node's servers and remove its entries.
 */
final class DirectoryImpl implements RpmaDirectory {

  private static final Logger LOG = LoggerFactory.getLogger(DirectoryImpl.class);
  private static final int MAX_NAME = 255;

  private final VertxInternal vertx;
  private final ClusterView cluster;
  private final Links links;
  private final NodeWatch watch = new NodeWatch();
  private final NamedConnections connections = new NamedConnections();
  /** What this directory published and has not withdrawn, by name. Guarded by itself. */
  private final Map<String, Publication> own = new HashMap<>();
  private final long timerId;
  private volatile boolean closed;

  DirectoryImpl(VertxInternal vertx, ClusterView cluster, Links links, long periodMs) {
    this.vertx = vertx;
    this.cluster = cluster;
    this.links = links;
    synchronized (watch) {
      watch.departed(cluster.nodes()); // the members now: who leaves from here on is seen
    }
    this.timerId = vertx.setPeriodic(periodMs, id -> checkMembers());
  }

  // ---------------------------------------------------------------- the cluster's word

  /** The member list read again: each node gone since the last read is dealt with. */
  void checkMembers() {
    Set<String> gone;
    try {
      // a node that is leaving itself sees every other leave: that is no one's departure
      if (closed || !cluster.active()) {
        return;
      }
      List<String> members = cluster.nodes();
      if (!members.contains(cluster.nodeId())) {
        return;
      }
      synchronized (watch) {
        gone = watch.departed(members);
      }
    } catch (RuntimeException e) { // the manager stopped between the check and the read
      LOG.debug("reading the cluster's members failed", e);
      return;
    }
    for (String node : gone) {
      nodeLeft(node);
    }
  }

  private void nodeLeft(String node) {
    for (NamedConnections.Named n : connections.takeOfNode(node)) {
      links.peerGone(n.connection(), departedWhy(n.published()));
    }
    // its entries out of the map; every directory that saw it does this, and removing an
    // entry only if it is still the same text leaves a new publication under the name alone
    cluster.map().compose(map -> map.entries().compose(entries -> {
      List<Future<Boolean>> removals = new ArrayList<>();
      entries.forEach((name, encoded) -> {
        Publication p = Publication.decode(name, encoded);
        if (p != null && p.nodeId().equals(node)) {
          removals.add(map.removeIfPresent(name, encoded));
        }
      });
      return Future.join(removals);
    })).onFailure(e -> LOG.debug("removing the entries of departed node " + node + " failed", e));
  }

  static String departedWhy(RpmaPublished p) {
    return "the cluster manager reports node " + p.nodeId() + " gone, which published \""
        + p.name() + "\" (" + p.host() + ":" + p.port() + "): its server is taken as lost"
        + " (RpmaDirectory; connect by name again to reach a server published since)";
  }

  private boolean live(Publication p) {
    return cluster.nodes().contains(p.nodeId());
  }

  // ---------------------------------------------------------------- publishing

  @Override
  public Future<RpmaPublished> publish(String name, RpmaServer server, String host,
      byte[] offer) {
    ContextInternal ctx = vertx.getOrCreateContext();
    String bad = firstOf(checkName(name), server == null ? "server must not be null" : null,
        checkPublishedHost(host), offer != null && offer.length > MAX_OFFER
            ? "offer has " + offer.length + " bytes, more than MAX_OFFER (" + MAX_OFFER + ")"
            : null);
    if (bad != null) {
      return ctx.failedFuture(new IllegalArgumentException("publish: " + bad));
    }
    if (closed) {
      return ctx.failedFuture(new IllegalStateException("publish \"" + name
          + "\": the directory is closed"));
    }
    Future<Void> closing;
    try {
      closing = links.whenClosing(server);
    } catch (IllegalArgumentException e) {
      return ctx.failedFuture(new IllegalArgumentException("publish: " + e.getMessage()));
    }
    if (closing.isComplete()) {
      return ctx.failedFuture(new IllegalStateException("publish \"" + name
          + "\": the server is closed"));
    }
    Publication p = Publication.of(
        new RpmaPublished(name, host, server.actualPort(), cluster.nodeId(), offer));
    Future<RpmaPublished> done = cluster.map()
        .compose(map -> map.put(name, p.encoded()))
        .compose(v -> {
          synchronized (own) {
            own.put(name, p);
          }
          // after the put: a server that closed meanwhile withdraws it at once
          closing.onComplete(ar -> withdraw(p));
          if (closed) {
            return withdraw(p).transform(ar -> Future.failedFuture(new IllegalStateException(
                "publish \"" + name + "\": the directory was closed meanwhile")));
          }
          return Future.succeededFuture(p.published());
        });
    return onCaller(ctx, done);
  }

  /** Out of {@link #own} (unless replaced there) and out of the map if still this text. */
  private Future<Boolean> withdraw(Publication p) {
    String name = p.published().name();
    synchronized (own) {
      if (own.get(name) == p) {
        own.remove(name);
      }
    }
    return cluster.map().compose(map -> map.removeIfPresent(name, p.encoded()))
        .onFailure(e -> LOG.debug("withdrawing \"" + name + "\" failed", e));
  }

  @Override
  public Future<Void> unpublish(String name) {
    ContextInternal ctx = vertx.getOrCreateContext();
    Publication p;
    synchronized (own) {
      p = name == null ? null : own.get(name);
    }
    if (p == null) {
      return ctx.failedFuture(new IllegalStateException("unpublish \"" + name
          + "\": this directory has published nothing under it"));
    }
    return onCaller(ctx, withdraw(p).compose(removed -> removed ? Future.<Void>succeededFuture()
        : Future.failedFuture(new IllegalStateException("unpublish \"" + name + "\": another"
            + " publisher's entry replaced this directory's; it was left in place"))));
  }

  // ---------------------------------------------------------------- finding

  @Override
  public Future<RpmaPublished> lookup(String name) {
    ContextInternal ctx = vertx.getOrCreateContext();
    String bad = checkName(name);
    if (bad != null) {
      return ctx.failedFuture(new IllegalArgumentException("lookup: " + bad));
    }
    return onCaller(ctx, cluster.map().compose(map -> map.get(name)).compose(encoded -> {
      Publication p = encoded == null ? null : Publication.decode(name, encoded);
      if (p == null || !live(p)) {
        return Future.failedFuture(nothingPublished(name, p));
      }
      return Future.succeededFuture(p.published());
    }));
  }

  static RpmaNothingPublishedException nothingPublished(String name, Publication stale) {
    String why = stale == null ? "" : " (what was, from node " + stale.nodeId()
        + ", went with that node, which left the cluster)";
    return new RpmaNothingPublishedException("nothing is published under \"" + name
        + "\" in the cluster's directory" + why + ": publish the server first"
        + " (RpmaDirectory.publish on its node), check the name (RpmaDirectory.list(prefix)"
        + " shows what is published), or retry while its server starts", name);
  }

  @Override
  public Future<List<RpmaPublished>> list(String prefix) {
    ContextInternal ctx = vertx.getOrCreateContext();
    if (prefix == null) {
      return ctx.failedFuture(new IllegalArgumentException("list: prefix must not be null (\"\""
          + " for all)"));
    }
    return onCaller(ctx, cluster.map().compose(map -> map.entries()).map(entries -> {
      List<String> members = cluster.nodes();
      List<RpmaPublished> found = new ArrayList<>();
      entries.forEach((name, encoded) -> {
        Publication p = name.startsWith(prefix) ? Publication.decode(name, encoded) : null;
        if (p != null && members.contains(p.nodeId())) {
          found.add(p.published());
        }
      });
      found.sort(Comparator.comparing(RpmaPublished::name));
      return found;
    }));
  }

  // ---------------------------------------------------------------- connecting

  @Override
  public Future<RpmaConnection> connect(RpmaPeer peer, String name, RpmaConnectOptions options) {
    ContextInternal ctx = vertx.getOrCreateContext();
    String bad = firstOf(peer == null ? "peer must not be null" : null, checkName(name),
        options == null ? "options must not be null" : null);
    if (bad == null && (options.getHost() != null || options.getPort() != 0)) {
      bad = "the options give host " + options.getHost() + " and port " + options.getPort()
          + ": leave them unset, the publication under \"" + name + "\" gives them";
    }
    if (bad != null) {
      return ctx.failedFuture(new IllegalArgumentException("connect by name: " + bad));
    }
    return lookup(name).compose(published -> peer.connect(new RpmaConnectOptions(options)
        .setHost(published.host()).setPort(published.port()))
        .map(connection -> watched(connection, published)));
  }

  /** Ended with the cluster's word from now on (at once if its node left meanwhile). */
  RpmaConnection watched(RpmaConnection connection, RpmaPublished published) {
    if (closed) {
      return connection;
    }
    connections.add(connection, published);
    links.whenClosed(connection).onComplete(ar -> connections.remove(connection));
    if (!cluster.nodes().contains(published.nodeId())) {
      connections.remove(connection);
      links.peerGone(connection, departedWhy(published));
    }
    return connection;
  }

  // ---------------------------------------------------------------- closing

  @Override
  public Future<Void> close() {
    ContextInternal ctx = vertx.getOrCreateContext();
    closed = true;
    vertx.cancelTimer(timerId);
    connections.clear();
    List<Publication> withdrawn;
    synchronized (own) {
      withdrawn = new ArrayList<>(own.values());
    }
    List<Future<Boolean>> all = new ArrayList<>();
    for (Publication p : withdrawn) {
      all.add(withdraw(p));
    }
    return onCaller(ctx, Future.join(all).<Void>mapEmpty().recover(e -> Future.succeededFuture()));
  }

  /** The connections it watches now (tests). */
  int watchedConnections() {
    return connections.size();
  }

  // ---------------------------------------------------------------- checks

  private static String checkName(String name) {
    if (name == null || name.isBlank()) {
      return "name must not be null or blank";
    }
    return name.length() > MAX_NAME ? "name has " + name.length() + " characters, more than "
        + MAX_NAME : null;
  }

  private String checkPublishedHost(String host) {
    if (host != null && (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]"))) {
      return "host " + host + " is a wildcard, which no client can connect to: publish the"
          + " address clients reach the server at (its RDMA interface's IP address)";
    }
    return links.checkHost("host", host);
  }

  private static String firstOf(String... problems) {
    for (String p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  private static <T> Future<T> onCaller(ContextInternal ctx, Future<T> result) {
    PromiseInternal<T> promise = ctx.promise();
    result.onComplete(promise);
    return promise.future();
  }
}
