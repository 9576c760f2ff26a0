package dev.rpma.vertx;

import dev.rpma.vertx.impl.cluster.Directories;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * Servers found by name through the Vert.x cluster: a server is published under a name (its
 * RDMA address, port and the bytes its publisher offers), kept in the cluster manager's map, and
 * a client connects by that name. Works with any {@code ClusterManager} (tested with
 * Hazelcast's); optional: nothing of it runs unless a directory is made, and a Vert.x that is
 * not clustered is refused.
 *
 * <p>A publication is withdrawn when its server closes, when {@link #unpublish} or this
 * directory's {@link #close()} withdraws it, and when the node that published it leaves the
 * cluster (as the cluster manager sees it: a node whose departure the manager reported is never
 * returned by {@link #lookup} or {@link #list}, and the first directory to see it removes its
 * entries). Publishing under a name taken replaces what was there (the last publisher wins; the
 * replaced publisher's close then leaves the new entry alone).
 *
 * <p>Failure from the cluster: a connection made with {@link #connect} ends at once when the
 * cluster manager reports the node that published its server gone, with an
 * {@link RpmaConnectionClosedException} saying so (its close and exception handlers hear it;
 * its operations in flight fail with it), instead of waiting for keepalive, which stays for
 * what the cluster cannot see (a link down, a process stalled). The directory reads the
 * cluster's member list every {@value #WATCH_PERIOD_MS} ms while it is open (a cluster manager
 * takes one node listener, which Vert.x itself holds), so the end comes within the manager's own
 * detection time and that period.
 *
 * <p>Every Future completes on the caller's context.
 *
 * @since 0.1.0
 */
public interface RpmaDirectory {

  /** How often an open directory reads the cluster's member list, in milliseconds. */
  long WATCH_PERIOD_MS = 100;

  /** The longest offer a publication carries, in bytes. */
  int MAX_OFFER = 65536;

  /**
   * The directory of a clustered Vert.x: its entries live in the cluster manager's map
   * {@code "vertx-rpma.directory"}, shared by every directory of the cluster.
   *
   * @param vertx a clustered Vert.x ({@code Vertx.builder().withClusterManager(...)
   *     .buildClustered()})
   * @return a directory, open until {@link #close()} or the Vert.x closes
   * @throws IllegalStateException if {@code vertx} is not clustered, saying how to make one (or
   *     to connect by address without a cluster)
   */
  static RpmaDirectory create(Vertx vertx) {
    return Directories.create(vertx);
  }

  /**
   * Publishes a server under a name, until the server closes, the name is withdrawn or this
   * node leaves the cluster.
   *
   * @param name the name, not blank, at most 255 characters (e.g. {@code "log/0"}: names with a
   *     common prefix are {@link #list}ed together)
   * @param server an open server of this node
   * @param host the address clients reach the server at: the IP address of the RDMA interface it
   *     listens on (not a wildcard address), or a host name they resolve
   * @param offer bytes to publish with it (at most {@link #MAX_OFFER}), copied; null for none
   * @return a Future completed with what was published; failed with an
   *     {@link IllegalArgumentException} naming a bad argument, an {@link IllegalStateException}
   *     if the server or this directory is closed, or the cluster map's failure
   */
  Future<RpmaPublished> publish(String name, RpmaServer server, String host, byte[] offer);

  /**
   * Publishes a server under a name with no offer, as
   * {@link #publish(String, RpmaServer, String, byte[])}.
   *
   * @param name the name
   * @param server an open server of this node
   * @param host the address clients reach the server at
   * @return a Future completed with what was published
   */
  default Future<RpmaPublished> publish(String name, RpmaServer server, String host) {
    return publish(name, server, host, null);
  }

  /**
   * Withdraws what this directory published under a name (the server stays open).
   *
   * @param name the name
   * @return a Future completed when withdrawn; failed with an {@link IllegalStateException} if
   *     this directory published nothing under it (or it was replaced by another publisher's)
   */
  Future<Void> unpublish(String name);

  /**
   * What is published under a name.
   *
   * @param name the exact name
   * @return a Future completed with the publication; failed with an
   *     {@link RpmaNothingPublishedException} naming the name if nothing is (or its node left)
   */
  Future<RpmaPublished> lookup(String name);

  /**
   * Everything published under names that start with a prefix, by name.
   *
   * @param prefix the prefix; empty for all
   * @return a Future completed with the publications, sorted by name; empty if none
   */
  Future<List<RpmaPublished>> list(String prefix);

  /**
   * Connects to the server published under a name, as {@link RpmaPeer#connect(RpmaConnectOptions)}
   * to its host and port; the connection then ends at once if the cluster manager reports the
   * publishing node gone (see the class comment).
   *
   * @param peer the client's peer
   * @param name the exact name
   * @param options the private data, shared receive queue and connection options; its host
   *     and port must be unset (the publication gives them)
   * @return a Future completed with the established connection; failed with an
   *     {@link RpmaNothingPublishedException} if nothing is published under the name, or as
   *     the connect fails
   */
  Future<RpmaConnection> connect(RpmaPeer peer, String name, RpmaConnectOptions options);

  /**
   * Connects to the server published under a name with these connection options and no private
   * data, as {@link #connect(RpmaPeer, String, RpmaConnectOptions)}.
   *
   * @param peer the client's peer
   * @param name the exact name
   * @param options the connection's queues and timeouts
   * @return a Future completed with the established connection
   */
  default Future<RpmaConnection> connect(RpmaPeer peer, String name, ConnectionOptions options) {
    return connect(peer, name, new RpmaConnectOptions().setConnectionOptions(options));
  }

  /**
   * Withdraws what this directory published and stops watching the cluster: connections made
   * through it stay open, no longer ended by the cluster's word. Idempotent.
   *
   * @return a Future completed when its publications are withdrawn
   */
  Future<Void> close();
}
