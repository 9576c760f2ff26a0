package dev.rpma.examples;

import dev.rpma.vertx.RemoteMemoryRegion;
import io.vertx.core.Future;

/** What a client checks about the server's log region before appending to it. */
public final class LogClientChecks {

  private LogClientChecks() {
  }

  /**
   * Fails when the region cannot take the run: too small. Whether it suits the way appends
   * become durable is DurableWriter.open's to say: the APM flush needs a region registered for
   * FLUSH_PERSISTENT (refused there, naming the fix), server persist does not (the server
   * msyncs), so a server of the other kind may offer a region without it.
   */
  public static Future<Void> check(RemoteMemoryRegion log, LogSettings settings) {
    if (log.size() < settings.recordsEnd()) {
      return Future.failedFuture(new IllegalStateException("the server's log holds "
          + log.size() + " bytes, the run needs " + settings.recordsEnd()
          + " (is the server running with the same --records, --record-size and --offset?)"));
    }
    return Future.succeededFuture();
  }
}
