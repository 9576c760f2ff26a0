package dev.rpma.examples;

import java.nio.file.Path;

/**
 * What a persistent-log run does and where.
 *
 * @param role what this process runs: both ends, or one of them (across hosts)
 * @param address this host's RDMA device IP address
 * @param serverAddress the server's address the client connects to (this host's by default)
 * @param port the server's port
 * @param records records appended
 * @param recordSize bytes per record, header included
 * @param window appends in flight at once
 * @param file the log file the server maps
 * @param timeoutSeconds the whole run's time limit
 */
public record LogSettings(Role role, String address, String serverAddress, int port, long records, int recordSize, int window,
    Path file, long timeoutSeconds) {

  /** Both ends in this JVM, or one of them: a server on one host, its client on another. */
  public enum Role { BOTH, SERVER, CLIENT }

  public static final String USAGE = """
      options (--name=value, or -Drpma.name=value):
        --role         both, server or client    (default: both; server and client across
                       hosts: the server verifies the file once its client has left)
        --address      this host's RDMA IP       (default: $RPMA_TEST_IP)
        --server       the server's RDMA IP      (default: --address; for --role=client)
        --port         server port               (default: 7301)
        --records      records to append         (default: 10000)
        --record-size  bytes per record          (default: 256, at least 24)
        --window       appends in flight         (default: 16)
        --file         the log file              (default: <java.io.tmpdir>/rpma-persistent-log.dat)
        --timeout      run time limit, seconds   (default: 240)""";

  /** The log file is one mapping, so at most 2 GiB. */
  private static final long MAX_FILE_SIZE = Integer.MAX_VALUE;

  public static LogSettings from(Settings s) {
    Role role = role(s.string("role", "both"));
    String address = s.deviceAddress();
    String serverAddress = s.string("server", address);
    int port = s.integer("port", 7301, 1, 65535);
    int recordSize = s.integer("record-size", 256, LogRecordFormat.MIN_RECORD_SIZE, 1 << 20);
    long records = s.number("records", 10_000, 1, MAX_FILE_SIZE / recordSize);
    int window = s.integer("window", 16, 1, 1024);
    Path file = Path.of(s.string("file",
        Path.of(System.getProperty("java.io.tmpdir"), "rpma-persistent-log.dat").toString()));
    long timeout = s.number("timeout", 240, 1, 24 * 3600);
    return new LogSettings(role, address, serverAddress, port, records, recordSize, window, file, timeout);
  }

  private static Role role(String text) {
    for (Role role : Role.values()) {
      if (role.name().equalsIgnoreCase(text)) {
        return role;
      }
    }
    throw new IllegalArgumentException("role must be both, server or client, got '" + text + "'");
  }

  public long fileSize() {
    return records * recordSize;
  }

  public long offsetOf(long sequence) {
    return sequence * recordSize;
  }
}
