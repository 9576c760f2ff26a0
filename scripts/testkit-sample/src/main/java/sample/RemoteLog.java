package sample;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;

/**
 * The application code under test: appends records to a log in a server's memory with RDMA
 * writes, then tells the server where each record ends with a send carrying the offset as
 * immediate data. Knows nothing of the test kit.
 */
public final class RemoteLog {

  private final RpmaConnection connection;
  private final MemoryRegion staging;
  private final RemoteMemoryRegion log;
  private long end;

  public RemoteLog(RpmaConnection connection, MemoryRegion staging, RemoteMemoryRegion log) {
    this.connection = connection;
    this.staging = staging;
    this.log = log;
  }

  /** Appends {@code record}; completes once the server was told it is there. */
  public Future<Long> append(String record) {
    byte[] bytes = record.getBytes(StandardCharsets.UTF_8);
    if (end + bytes.length > log.size()) {
      return Future.failedFuture(new IllegalStateException("the log is full"));
    }
    long at = end;
    end += bytes.length;
    staging.buffer().put(0, bytes);
    return connection.write(log, at, staging, 0, bytes.length)
        .compose(v -> connection.sendWithImm(staging, 0, 0, (int) (at + bytes.length)))
        .map(v -> at);
  }
}
