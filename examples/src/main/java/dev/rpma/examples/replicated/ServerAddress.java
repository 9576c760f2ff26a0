package dev.rpma.examples.replicated;

import java.util.ArrayList;
import java.util.List;

/**
 * Where one replica of the log listens: its RDMA IP address and port.
 *
 * @param host the server's RDMA IPv4 address
 * @param port its port
 */
public record ServerAddress(String host, int port) {

  /** {@code HOST:PORT}, or {@code HOST} alone with {@code defaultPort}. */
  public static ServerAddress parse(String text, int defaultPort) {
    String trimmed = text.trim();
    int colon = trimmed.lastIndexOf(':');
    if (colon < 0) {
      return new ServerAddress(trimmed, defaultPort);
    }
    try {
      return new ServerAddress(trimmed.substring(0, colon),
          Integer.parseInt(trimmed.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a server is HOST or HOST:PORT, got '" + text + "'");
    }
  }

  /** A comma-separated list of {@link #parse} forms; blank gives none. */
  public static List<ServerAddress> parseList(String text, int defaultPort) {
    List<ServerAddress> servers = new ArrayList<>();
    if (text != null) {
      for (String one : text.split(",")) {
        if (!one.isBlank()) {
          servers.add(parse(one, defaultPort));
        }
      }
    }
    return servers;
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
