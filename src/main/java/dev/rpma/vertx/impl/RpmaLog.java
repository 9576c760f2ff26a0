package dev.rpma.vertx.impl;

import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * librpma's log lines, on java.util.logging (logger {@code dev.rpma.vertx.librpma}).
 *
 * <p>On non-blocking CM fds librpma logs an ERROR each time "nothing is pending"
 * (rdma_get_cm_event failing with EAGAIN): that is the normal end of an event loop's read, so
 * those lines are dropped.
 */
final class RpmaLog {

  static final Logger LOGGER = Logger.getLogger("dev.rpma.vertx.librpma");

  private static final int ERROR = 1;
  private static final int WARNING = 2;
  private static final int NOTICE = 3;
  private static final int INFO = 4;

  private RpmaLog() {
  }

  /**
   * Decoders of bytes from the wire: their failures reach the caller as an
   * IllegalArgumentException, so librpma's ERROR line about the same bad input is only detail
   * (and untrusted input would otherwise flood the log).
   */
  private static final Set<String> REPORTED_TO_CALLER = Set.of(
      "rpma_mr_remote_from_descriptor", "rpma_peer_cfg_from_descriptor");

  static void log(int level, String file, int line, String function, String message) {
    if (isExpectedAgain(message)) {
      return;
    }
    Level julLevel = REPORTED_TO_CALLER.contains(function) ? Level.FINE : toJul(level);
    if (LOGGER.isLoggable(julLevel)) {
      LOGGER.log(julLevel, () -> function + "() " + file + ":" + line + ": " + message.strip());
    }
  }

  static boolean isExpectedAgain(String message) {
    return message != null && message.contains("Resource temporarily unavailable");
  }

  private static Level toJul(int level) {
    if (level <= ERROR) {
      return Level.SEVERE;
    }
    // librpma's NOTICE (a connection established, closed) is routine for an application
    return switch (level) {
      case WARNING -> Level.WARNING;
      case NOTICE -> Level.FINE;
      case INFO -> Level.FINER;
      default -> Level.FINEST;
    };
  }

  /** librpma's threshold from the JUL level, so nothing is formatted that would be dropped. */
  static int threshold() {
    Logger l = LOGGER;
    while (l != null && l.getLevel() == null) {
      l = l.getParent();
    }
    Level level = l == null ? Level.INFO : l.getLevel();
    if (level.intValue() <= Level.FINEST.intValue()) {
      return 5;
    }
    if (level.intValue() <= Level.FINER.intValue()) {
      return INFO;
    }
    if (level.intValue() <= Level.FINE.intValue()) {
      return NOTICE;
    }
    return level.intValue() <= Level.WARNING.intValue() ? WARNING : ERROR;
  }
}
