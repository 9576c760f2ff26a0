package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnectOptions;
import io.vertx.core.net.SocketAddress;

/**
 * Where a client connects, from each form users give it (host and port, a
 * {@link SocketAddress}, {@link RpmaConnectOptions}), checked before anything is made; and the
 * ends of the connection it makes as far as librpma tells them.
 */
final class ConnectTargets {

  private ConnectTargets() {
  }

  /** Null if {@code options} can be connected with; else what is wrong and what to set. */
  static String check(RpmaConnectOptions options) {
    if (options == null) {
      return "connect options must not be null";
    }
    if (options.getHost() == null) {
      return "the connect options have no host: set the server's IP address (setHost)";
    }
    if (options.getPort() == 0) {
      return "the connect options have no port: set the server's port (setPort)";
    }
    return null;
  }

  /** Null if {@code address} is an inet socket address with a port; else what is wrong. */
  static String check(SocketAddress address) {
    if (address == null) {
      return "the server's address must not be null";
    }
    if (!address.isInetSocket()) {
      return "the server's address must be an inet socket address"
          + " (SocketAddress.inetSocketAddress(port, host)), got the domain socket " + address;
    }
    return null;
  }

  /** The host to connect to: the address as given if it has one, else its IP address. */
  static String host(SocketAddress address) {
    return address.host() != null ? address.host() : address.hostAddress();
  }

  /**
   * Null if a connect's arguments are valid; else what is wrong. Private data needs no check
   * here: only {@link RpmaConnectOptions#setPrivateData} takes it, and it refuses too much.
   */
  static String check(String address, int port, ConnectionOptions options, DeviceLimits device) {
    return Endpoints.check(address, port, options, device);
  }

  /** listen(port) or listen(port, host) before a request handler was set. */
  static IllegalStateException noHandler() {
    return new IllegalStateException("listen: no request handler: set one first,"
        + " peer.connectionRequestHandler(req -> ...), or pass it: listen(port, host, handler)");
  }
}
