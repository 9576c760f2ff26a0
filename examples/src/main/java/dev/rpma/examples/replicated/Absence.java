package dev.rpma.examples.replicated;

import java.util.ArrayList;
import java.util.List;

/**
 * A server out of the writer's set while records {@code from} to {@code to - 1} were
 * acknowledged: their quorum was made of the other servers, so the checker does not count this
 * one's copy of them (a server back after a power loss holds them only as copied from a peer).
 * Written {@code IP[:PORT]@FROM-TO}.
 *
 * @param server the server away
 * @param from the first sequence number acknowledged without it
 * @param to the sequence number past the last one acknowledged without it
 */
record Absence(ServerAddress server, long from, long to) {

  Absence {
    if (from < 0 || to < from) {
      throw new IllegalArgumentException("an absence's records run FROM-TO with 0 <= FROM <= TO,"
          + " got " + from + "-" + to + " for " + server);
    }
  }

  /** {@code IP[:PORT]@FROM-TO}; the port defaults to {@code defaultPort}. */
  static Absence parse(String text, int defaultPort) {
    String trimmed = text.trim();
    int at = trimmed.indexOf('@');
    int dash = trimmed.indexOf('-', at + 1);
    if (at < 0 || dash < 0) {
      throw new IllegalArgumentException("an absence is IP[:PORT]@FROM-TO (the records"
          + " acknowledged while that server was away), got '" + text + "'");
    }
    try {
      return new Absence(ServerAddress.parse(trimmed.substring(0, at), defaultPort),
          Long.parseLong(trimmed.substring(at + 1, dash)),
          Long.parseLong(trimmed.substring(dash + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("an absence is IP[:PORT]@FROM-TO with FROM and TO"
          + " sequence numbers, got '" + text + "'");
    }
  }

  /** A comma-separated list of {@link #parse} forms; blank gives none. */
  static List<Absence> parseList(String text, int defaultPort) {
    List<Absence> absences = new ArrayList<>();
    for (String one : text.split(",")) {
      if (!one.isBlank()) {
        absences.add(parse(one, defaultPort));
      }
    }
    return absences;
  }

  /** Whether {@code sequence} was acknowledged while {@code other} was this absent server. */
  boolean covers(ServerAddress other, long sequence) {
    return server.equals(other) && sequence >= from && sequence < to;
  }

  @Override
  public String toString() {
    return server + "@" + from + "-" + to;
  }
}
