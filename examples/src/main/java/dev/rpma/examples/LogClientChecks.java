package dev.rpma.examples;

import dev.rpma.vertx.RemoteMemoryRegion;
import io.vertx.core.Future;

/** What a client checks about the server's log region before appending to it. */
public final class LogClientChecks {

  private LogClientChecks() {
  }

  /** Fails when the region cannot take the run: too small, or no persistent flush. */
  public static Future<Void> check(RemoteMemoryRegion log, LogSettings settings) {
    if (log.size() < settings.recordsEnd()) {
      return Future.failedFuture(new IllegalStateException("the server's log holds "
          + log.size() + " bytes, the run needs " + settings.recordsEnd()
          + " (is the server running with the same --records, --record-size and --offset?)"));
    }
    if (!log.supportsPersistentFlush()) {
      return Future.failedFuture(new IllegalStateException(
          "the server's log region is not registered for FLUSH_PERSISTENT"));
    }
    return Future.succeededFuture();
  }
}
