package dev.rpma.vertx.impl.jni;

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
public final class RpmaLog {

  public static final Logger LOGGER = Logger.getLogger("dev.rpma.vertx.librpma");

  // librpma's levels, asked of C directly: this class initialises while Native does, before
  // NativeConstants can
  private static final int ERROR = Native.constant("RPMA_LOG_LEVEL_ERROR");
  private static final int WARNING = Native.constant("RPMA_LOG_LEVEL_WARNING");
  private static final int NOTICE = Native.constant("RPMA_LOG_LEVEL_NOTICE");
  private static final int INFO = Native.constant("RPMA_LOG_LEVEL_INFO");
  private static final int DEBUG = Native.constant("RPMA_LOG_LEVEL_DEBUG");

  private RpmaLog() {
  }

  /**
   * Decoders of bytes from the wire: their failures reach the caller as an
   * IllegalArgumentException, so librpma's ERROR line about the same bad input is only detail
   * (and untrusted input would otherwise flood the log).
   */
  private static final Set<String> REPORTED_TO_CALLER = Set.of(
      "rpma_mr_remote_from_descriptor", "rpma_peer_cfg_from_descriptor");

  public static void log(int level, String file, int line, String function, String message) {
    if (isExpectedAgain(message)) {
      return;
    }
    Level julLevel = REPORTED_TO_CALLER.contains(function) ? Level.FINE : toJul(level);
    if (LOGGER.isLoggable(julLevel)) {
      LOGGER.log(julLevel, () -> function + "() " + file + ":" + line + ": " + message.strip());
    }
  }

  public static boolean isExpectedAgain(String message) {
    return message != null && message.contains("Resource temporarily unavailable");
  }

  private static Level toJul(int level) {
    if (level <= ERROR) {
      return Level.SEVERE;
    }
    // librpma's NOTICE (a connection established, closed) is routine for an application
    if (level == WARNING) {
      return Level.WARNING;
    }
    return level == NOTICE ? Level.FINE : level == INFO ? Level.FINER : Level.FINEST;
  }

  /** librpma's threshold from the JUL level, so nothing is formatted that would be dropped. */
  public static int threshold() {
    Logger l = LOGGER;
    while (l != null && l.getLevel() == null) {
      l = l.getParent();
    }
    Level level = l == null ? Level.INFO : l.getLevel();
    if (level.intValue() <= Level.FINEST.intValue()) {
      return DEBUG;
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
