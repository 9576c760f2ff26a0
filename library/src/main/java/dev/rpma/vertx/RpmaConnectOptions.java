package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Objects;

/**
 * What {@link RpmaPeer#connect(RpmaConnectOptions)} connects to and how, as Vert.x's
 * {@code ConnectOptions} for a {@code NetClient}: the server's host and port, the private data
 * sent with the request, the shared receive queue to attach to, and the connection's options.
 *
 * <p>A Vert.x data object: it can come from a verticle's {@code config()}
 * ({@code new RpmaConnectOptions(config().getJsonObject("server"))}) with the setters' names as
 * keys: {@code {"host": "10.0.2.15", "port": 7599, "privateData": "aGk",
 * "connectionOptions": {"connectTimeoutMs": 5000}}} (private data in Vert.x's base64, as
 * {@link JsonObject#getBinary} reads it). The shared receive queue is a live object, not JSON:
 * set it in code.
 *
 * @since 0.1.0
 */
public class RpmaConnectOptions {

  private String host;
  private int port;
  private byte[] privateData;
  private RpmaSharedReceiveQueue sharedReceiveQueue;
  private ConnectionOptions connectionOptions = new ConnectionOptions();

  /** No host nor port yet; no private data, no queue, the default connection options. */
  public RpmaConnectOptions() {
  }

  /**
   * The options in {@code json}, the defaults for keys it lacks. Each value goes through its
   * setter, so it is checked as there.
   *
   * @param json keys named as the setters ({@code host}, {@code port}, {@code privateData},
   *     {@code connectionOptions})
   * @throws IllegalArgumentException for an unknown key (a typo would otherwise be ignored), the
   *     queue's key (not JSON), or a value of the wrong type or range, naming the key
   */
  public RpmaConnectOptions(JsonObject json) {
    RpmaConnectOptionsConverter.fromJson(json, this);
  }

  /**
   * A copy (the private data copied, the queue shared: it is the same queue).
   *
   * @param other the options to copy
   */
  public RpmaConnectOptions(RpmaConnectOptions other) {
    this.host = other.host;
    this.port = other.port;
    this.privateData = other.privateData == null ? null : other.privateData.clone();
    this.sharedReceiveQueue = other.sharedReceiveQueue;
    this.connectionOptions = new ConnectionOptions(other.connectionOptions);
  }

  /**
   * The server's host.
   *
   * @param host an IP address (or a name the resolver knows) of the server's RDMA interface
   * @return these options
   * @throws IllegalArgumentException if {@code host} is null or blank
   */
  public RpmaConnectOptions setHost(String host) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host must be the server's IP address, got "
          + (host == null ? "null" : "a blank string"));
    }
    this.host = host;
    return this;
  }

  /**
   * The server's host, null until set.
   *
   * @return the host
   */
  public String getHost() {
    return host;
  }

  /**
   * The server's port.
   *
   * @param port in [1, 65535]
   * @return these options
   * @throws IllegalArgumentException if out of range
   */
  public RpmaConnectOptions setPort(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
    }
    this.port = port;
    return this;
  }

  /**
   * The server's port, 0 until set.
   *
   * @return the port
   */
  public int getPort() {
    return port;
  }

  /**
   * Bytes the server sees with the request ({@link RpmaConnectionRequest#privateData()}); they
   * arrive padded by the RDMA CM (see {@link PrivateData}). Copied.
   *
   * @param privateData at most {@link RpmaConnection#MAX_CONNECT_PRIVATE_DATA} bytes; null or
   *     empty for none
   * @return these options
   * @throws IllegalArgumentException if longer than the RDMA CM carries
   */
  public RpmaConnectOptions setPrivateData(byte[] privateData) {
    if (privateData != null && privateData.length > RpmaConnection.MAX_CONNECT_PRIVATE_DATA) {
      throw new IllegalArgumentException("privateData must be at most "
          + RpmaConnection.MAX_CONNECT_PRIVATE_DATA + " bytes (the RDMA CM limit of a connect"
          + " request), got " + privateData.length);
    }
    this.privateData = privateData == null || privateData.length == 0 ? null
        : privateData.clone();
    return this;
  }

  /**
   * The private data to send, null for none.
   *
   * @return a copy of the bytes, or null
   */
  public byte[] getPrivateData() {
    return privateData == null ? null : privateData.clone();
  }

  /**
   * The shared receive queue the connection attaches to: the messages it receives land in the
   * queue's receives ({@link RpmaConnection#recv} is refused on it). Not part of the JSON form.
   *
   * @param queue a queue of the connecting peer, open, on the caller's event loop; null for none
   * @return these options
   */
  public RpmaConnectOptions setSharedReceiveQueue(RpmaSharedReceiveQueue queue) {
    this.sharedReceiveQueue = queue;
    return this;
  }

  /**
   * The shared receive queue to attach to, null for none.
   *
   * @return the queue
   */
  public RpmaSharedReceiveQueue getSharedReceiveQueue() {
    return sharedReceiveQueue;
  }

  /**
   * The connection's queues and timeouts. Copied.
   *
   * @param options the options; not null
   * @return these options
   * @throws IllegalArgumentException if {@code options} is null
   */
  public RpmaConnectOptions setConnectionOptions(ConnectionOptions options) {
    if (options == null) {
      throw new IllegalArgumentException("connectionOptions must not be null: leave them unset"
          + " for the defaults");
    }
    this.connectionOptions = new ConnectionOptions(options);
    return this;
  }

  /**
   * The connection's queues and timeouts (the defaults until set). The object held: changes to
   * it change these options.
   *
   * @return the connection options
   */
  public ConnectionOptions getConnectionOptions() {
    return connectionOptions;
  }

  /**
   * These options as JSON, keyed as the setters are named; the queue is left out (not JSON).
   *
   * @return a new JSON object
   */
  public JsonObject toJson() {
    return RpmaConnectOptionsConverter.toJson(this);
  }

  @Override
  public String toString() {
    return "RpmaConnectOptions" + toJson().encode()
        + (sharedReceiveQueue != null ? " with a shared receive queue" : "");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RpmaConnectOptions other && Objects.equals(host, other.host)
        && port == other.port && Arrays.equals(privateData, other.privateData)
        && sharedReceiveQueue == other.sharedReceiveQueue
        && connectionOptions.equals(other.connectionOptions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(host, port, Arrays.hashCode(privateData), connectionOptions);
  }
}
