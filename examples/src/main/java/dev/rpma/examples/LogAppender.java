package dev.rpma.examples;

import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Future;

/**
 * One durable append: the record is built in the lane's slot of the local region, written to
 * its place in the server's log, and flushed to persistence.
 */
public final class LogAppender {

  private final RpmaConnection connection;
  private final MemoryRegion slots;
  private final RemoteMemoryRegion log;
  private final LogSettings settings;

  public LogAppender(RpmaConnection connection, MemoryRegion slots, RemoteMemoryRegion log,
      LogSettings settings) {
    this.connection = connection;
    this.slots = slots;
    this.log = log;
    this.settings = settings;
  }

  /** Bytes of local memory the appender needs: one record slot per lane. */
  public static int slotBytes(LogSettings settings) {
    return settings.window() * settings.recordSize();
  }

  /**
   * Completes when record {@code sequence} is durable in the server's log. Call on the
   * connection's context; the lane's slot must not be in use by another append.
   */
  public Future<Void> append(long sequence, int lane) {
    int size = settings.recordSize();
    int slot = lane * size;
    long offset = settings.offsetOf(sequence);
    LogRecordFormat.encode(slots.buffer(), slot, sequence, size);
    // Both are posted at once, without waiting for the write: operations on one connection
    // are carried out in order, so the flush (a read on this device) only completes once the
    // write before it has landed. That is librpma's own write-then-flush pattern, one round
    // trip per record instead of two.
    Future<Void> written = connection.write(log, offset, slots, slot, size);
    Future<Void> durable = connection.flush(log, offset, size, FlushType.PERSISTENT);
    return Future.all(written, durable).mapEmpty();
  }
}
