package dev.rpma.examples;

import dev.rpma.vertx.DurabilityMethod;
import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Future;

/**
 * One durable append: the record is built in the lane's slot of the local region, written to
 * its place in the server's log, and made durable there by the library's {@link DurableWriter}
 * (an APM flush on persistent memory; on ordinary storage, the server persists the range and
 * acknowledges).
 */
public final class LogAppender {

  private final RpmaConnection connection;
  private final MemoryRegion slots;
  private final RemoteMemoryRegion log;
  private final LogSettings settings;
  private final DurableWriter durable;

  public LogAppender(RpmaConnection connection, MemoryRegion slots, RemoteMemoryRegion log,
      LogSettings settings, DurableWriter durable) {
    this.connection = connection;
    this.durable = durable;
    this.slots = slots;
    this.log = log;
    this.settings = settings;
  }

  /** Bytes of local memory the appender needs: one record slot per lane. */
  public static int slotBytes(LogSettings settings) {
    return settings.window() * settings.recordSize();
  }

  /**
   * The completions the client's connection counts per record: the write's and the flush's,
   * or with the server persisting, the write's, the request's send and the reply's receive.
   */
  public static int completionsPerRecord(DurabilityMethod method) {
    return method == DurabilityMethod.APM_FLUSH ? 2 : 3;
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
    // are carried out in order, so the flush (a read on this device) or the persist request
    // (a send) only reaches the server once the write before it has landed. That is librpma's
    // own write-then-flush pattern, one round trip per record instead of two.
    Future<Void> written = connection.write(log, offset, slots, slot, size);
    Future<Void> persisted = durable.persist(offset, size);
    return Future.all(written, persisted).mapEmpty();
  }
}
