package dev.rpma.vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Exceptions that only reached a log: a task that threw on an event loop (Netty logs "A task
 * raised an exception" and nobody else hears), a warning with a cause. Vert.x's own unhandled
 * exceptions go to its exception handler instead; Vert.x and Netty log through JUL here.
 */
final class HostileLogWatch extends Handler implements AutoCloseable {

  private final ConcurrentLinkedQueue<String> logged = new ConcurrentLinkedQueue<>();

  static HostileLogWatch start() {
    HostileLogWatch watch = new HostileLogWatch();
    Logger.getLogger("").addHandler(watch);
    return watch;
  }

  @Override
  public void publish(LogRecord r) {
    if (r.getThrown() != null && r.getLevel().intValue() >= Level.WARNING.intValue()) {
      logged.add("logged by " + r.getLoggerName() + ": " + r.getMessage() + ": " + r.getThrown()
          + HostileLedger.stackTop(r.getThrown()));
    }
  }

  /** What was logged since the last call. */
  List<String> drain() {
    List<String> all = new ArrayList<>();
    for (String s; (s = logged.poll()) != null; ) {
      all.add(s);
    }
    return all;
  }

  @Override
  public void flush() {
  }

  @Override
  public void close() {
    Logger.getLogger("").removeHandler(this);
  }
}
