package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.DurabilityMethod;
import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Future;

/** The server's memory is persistent: a persistent flush behind the writes is enough. */
final class ApmFlushWriter implements DurableWriter {

  private final RpmaConnection connection;
  private final RemoteMemoryRegion region;
  private volatile boolean closed;

  ApmFlushWriter(RpmaConnection connection, RemoteMemoryRegion region) {
    this.connection = connection;
    this.region = region;
  }

  @Override
  public DurabilityMethod method() {
    return DurabilityMethod.APM_FLUSH;
  }

  @Override
  public Future<Void> persist(long offset, long length) {
    DurableWriters.checkRange(region, offset, length);
    if (closed) {
      return Future.failedFuture(new IllegalStateException("this DurableWriter is closed"));
    }
    return connection.flush(region, offset, length, FlushType.PERSISTENT);
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }
}
