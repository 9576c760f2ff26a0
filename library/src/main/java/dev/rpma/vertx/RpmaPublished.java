package dev.rpma.vertx;

import java.util.Arrays;
import java.util.Objects;

/**
 * A server as the cluster's directory ({@link RpmaDirectory}) holds it: the name it is published
 * under, where a client connects ({@link #host()}, {@link #port()}), the cluster node that
 * published it (whose departure withdraws it) and the bytes its publisher offers with it (a
 * region's descriptor, a {@link PeerConfig}'s, an application's own: the directory does not
 * read them). A value: equal when every field is.
 *
 * @since 0.1.0
 */
public final class RpmaPublished {

  private final String name;
  private final String host;
  private final int port;
  private final String nodeId;
  private final byte[] offer;

  /**
   * A publication as a value (the directory makes them; an application may make its own, e.g. to
   * list servers it knows by address beside those it finds by name).
   *
   * @param name the name it is published under, not blank
   * @param host the server's RDMA address (what a client connects to), not blank
   * @param port the server's port, in [1, 65535]
   * @param nodeId the cluster node that published it ({@code ClusterManager.getNodeId()}), not
   *     null
   * @param offer the bytes offered with it, copied; null for none (read back as empty)
   * @throws IllegalArgumentException if a field is missing or out of range, naming it
   */
  public RpmaPublished(String name, String host, int port, String nodeId, byte[] offer) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be null or blank");
    }
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host must not be null or blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in [1, 65535], was " + port);
    }
    if (nodeId == null) {
      throw new IllegalArgumentException("nodeId must not be null");
    }
    this.name = name;
    this.host = host;
    this.port = port;
    this.nodeId = nodeId;
    this.offer = offer == null ? new byte[0] : offer.clone();
  }

  /**
   * The name it is published under.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The server's RDMA address, as its publisher gave it: what a client connects to.
   *
   * @return an IP address or a host name
   */
  public String host() {
    return host;
  }

  /**
   * The port the server listens on ({@link RpmaServer#actualPort()}).
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * The cluster node that published it: when the cluster manager reports this node gone, the
   * publication is withdrawn and connections made to it by name fail.
   *
   * @return the node's id, as {@code ClusterManager.getNodeId()} gave it on that node
   */
  public String nodeId() {
    return nodeId;
  }

  /**
   * The bytes offered with it.
   *
   * @return a copy; empty if none were offered
   */
  public byte[] offer() {
    return offer.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RpmaPublished p && port == p.port && name.equals(p.name)
        && host.equals(p.host) && nodeId.equals(p.nodeId) && Arrays.equals(offer, p.offer);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, host, port, nodeId) * 31 + Arrays.hashCode(offer);
  }

  @Override
  public String toString() {
    return "RpmaPublished[" + name + " at " + host + ":" + port + ", node " + nodeId + ", "
        + offer.length + " bytes offered]";
  }
}
