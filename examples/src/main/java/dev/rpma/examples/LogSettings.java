package dev.rpma.examples;

import java.nio.file.Path;

/**
 * What a persistent-log run does and where.
 *
 * @param address the RDMA device's IP address (server and client are on the same one)
 * @param port the server's port
 * @param records records appended
 * @param recordSize bytes per record, header included
 * @param window appends in flight at once
 * @param file the log file the server maps
 * @param timeoutSeconds the whole run's time limit
 */
public record LogSettings(String address, int port, long records, int recordSize, int window,
    Path file, long timeoutSeconds) {

  public static final String USAGE = """
      options (--name=value, or -Drpma.name=value):
        --address      RDMA device IP            (default: $RPMA_TEST_IP)
        --port         server port               (default: 7301)
        --records      records to append         (default: 10000)
        --record-size  bytes per record          (default: 256, at least 24)
        --window       appends in flight         (default: 16)
        --file         the log file              (default: <java.io.tmpdir>/rpma-persistent-log.dat)
        --timeout      run time limit, seconds   (default: 240)""";

  /** The log file is one mapping, so at most 2 GiB. */
  private static final long MAX_FILE_SIZE = Integer.MAX_VALUE;

  public static LogSettings from(Settings s) {
    String address = s.deviceAddress();
    int port = s.integer("port", 7301, 1, 65535);
    int recordSize = s.integer("record-size", 256, LogRecordFormat.MIN_RECORD_SIZE, 1 << 20);
    long records = s.number("records", 10_000, 1, MAX_FILE_SIZE / recordSize);
    int window = s.integer("window", 16, 1, 1024);
    Path file = Path.of(s.string("file",
        Path.of(System.getProperty("java.io.tmpdir"), "rpma-persistent-log.dat").toString()));
    long timeout = s.number("timeout", 240, 1, 24 * 3600);
    return new LogSettings(address, port, records, recordSize, window, file, timeout);
  }

  public long fileSize() {
    return records * recordSize;
  }

  public long offsetOf(long sequence) {
    return sequence * recordSize;
  }
}
