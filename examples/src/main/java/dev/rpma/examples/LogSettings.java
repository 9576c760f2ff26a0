package dev.rpma.examples;

import java.nio.file.Path;
import java.util.Locale;

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
 * @param logSize the log's length in bytes: the file's, or the range of a device-DAX device
 * @param firstOffset where this run's first record goes in the log
 */
public record LogSettings(Role role, String address, String serverAddress, int port, long records, int recordSize, int window,
    Path file, long timeoutSeconds, long logSize, long firstOffset) {

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
        --timeout      run time limit, seconds   (default: 240)
        --size         the log's length, bytes,  (default: what the records take, from
                       K, M or G suffixed         --offset; past 4 GiB is fine: the library
                                                  maps and registers it whole)
        --offset       where the first record    (default: 0; e.g. 4G to append past 4 GiB
                       goes in the log            of a log that already holds data)
      --file may be a device-DAX device (/dev/daxN.M, persistent memory): then --size is at
      most the device's and a multiple of 2M (default: what the records take, rounded up).""";

  /** A log of at most 1 TiB: the library maps and registers it as one region. */
  private static final long MAX_LOG_SIZE = 1L << 40;
  /** Device-DAX maps in units of its alignment, 2 MiB by default. */
  private static final long DAX_ALIGN = 2 << 20;

  public static LogSettings from(Settings s) {
    Role role = role(s.string("role", "both"));
    String address = s.deviceAddress();
    String serverAddress = s.string("server", address);
    int port = s.integer("port", 7301, 1, 65535);
    int recordSize = s.integer("record-size", 256, LogRecordFormat.MIN_RECORD_SIZE, 1 << 20);
    long records = s.number("records", 10_000, 1, MAX_LOG_SIZE / recordSize);
    int window = s.integer("window", 16, 1, 1024);
    Path file = Path.of(s.string("file",
        Path.of(System.getProperty("java.io.tmpdir"), "rpma-persistent-log.dat").toString()));
    long timeout = s.number("timeout", 240, 1, 24 * 3600);
    long firstOffset = bytes(s, "offset", 0);
    long needed = firstOffset + records * recordSize;
    long defaultSize = isDeviceDax(file) ? roundUp(needed, DAX_ALIGN) : needed;
    long logSize = bytes(s, "size", defaultSize);
    if (logSize < needed || logSize > MAX_LOG_SIZE) {
      throw new IllegalArgumentException("--size " + logSize + " must hold the records: at least"
          + " --offset + --records x --record-size = " + needed + ", at most " + MAX_LOG_SIZE);
    }
    return new LogSettings(role, address, serverAddress, port, records, recordSize, window, file,
        timeout, logSize, firstOffset);
  }

  /** A byte count with an optional K, M or G suffix (powers of 1024). */
  static long bytes(Settings s, String name, long defaultValue) {
    String text = s.string(name, null);
    if (text == null) {
      return defaultValue;
    }
    String digits = text.toUpperCase(Locale.ROOT).replace("_", "");
    int shift = switch (digits.charAt(digits.length() - 1)) {
      case 'K' -> 10;
      case 'M' -> 20;
      case 'G' -> 30;
      default -> 0;
    };
    try {
      long n = Long.parseLong(shift == 0 ? digits : digits.substring(0, digits.length() - 1));
      if (n < 0 || n > (MAX_LOG_SIZE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a byte count up to 1T (e.g."
          + " 4096, 64M, 5G), got '" + text + "'");
    }
  }

  /** Whether the log lives on a device-DAX device rather than in a file. */
  static boolean isDeviceDax(Path file) {
    return file.getFileName() != null && file.getFileName().toString().startsWith("dax")
        && file.startsWith("/dev");
  }

  private static long roundUp(long n, long unit) {
    return (n + unit - 1) / unit * unit;
  }

  private static Role role(String text) {
    for (Role role : Role.values()) {
      if (role.name().equalsIgnoreCase(text)) {
        return role;
      }
    }
    throw new IllegalArgumentException("role must be both, server or client, got '" + text + "'");
  }

  /** The log's length: the file's, or the device-DAX range registered. */
  public long fileSize() {
    return logSize;
  }

  /** Where a record goes in the log. */
  public long offsetOf(long sequence) {
    return firstOffset + sequence * recordSize;
  }

  /** Where this run's records end: what a client needs of the server's log. */
  public long recordsEnd() {
    return offsetOf(records);
  }
}
