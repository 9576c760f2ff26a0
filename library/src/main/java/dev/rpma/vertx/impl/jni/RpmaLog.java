package dev.rpma.vertx.impl.jni;

import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;

/**
 * librpma's log lines, through Vert.x's logging facade (logger {@code dev.rpma.vertx.librpma}):
 * they go wherever the application sends Vert.x's own (SLF4J, Log4j 2, java.util.logging).
 *
 * <p>librpma logs every failure before it returns it, and every failure it returns reaches the
 * caller as an exception (or a failed Future) naming the call, the code, errno and its text:
 * its ERROR lines are detail, logged at debug, so that one mistake is not reported twice.
 *
 * <p>On non-blocking CM fds librpma logs an ERROR each time "nothing is pending"
 * (rdma_get_cm_event failing with EAGAIN): that is the normal end of an event loop's read, so
 * those lines are dropped.
 */
public final class RpmaLog {

  public static final String LOGGER_NAME = "dev.rpma.vertx.librpma";
  private static final Logger LOGGER = LoggerFactory.getLogger(LOGGER_NAME);

  // librpma's levels, asked of C directly: this class initialises while Native does, before
  // NativeConstants can
  private static final int ERROR = Native.constant("RPMA_LOG_LEVEL_ERROR");
  private static final int WARNING = Native.constant("RPMA_LOG_LEVEL_WARNING");
  private static final int NOTICE = Native.constant("RPMA_LOG_LEVEL_NOTICE");
  private static final int DEBUG = Native.constant("RPMA_LOG_LEVEL_DEBUG");

  private RpmaLog() {
  }

  /**
   * The last ERROR librpma logged on this thread: which call inside librpma failed (e.g.
   * rdma_resolve_addr), which its error code does not say. Only errors, so nothing per
   * operation.
   */
  private static final ThreadLocal<String> LAST_ERROR = new ThreadLocal<>();

  public static void log(int level, String file, int line, String function, String message) {
    if (isExpectedAgain(message)) {
      return;
    }
    if (level <= ERROR) {
      LAST_ERROR.set(function + "(): " + message.strip());
    }
    if (level == WARNING) {
      LOGGER.warn(format(file, line, function, message));
    } else if (level <= ERROR || level == NOTICE) {
      // NOTICE: a connection established or closed, routine for an application
      if (LOGGER.isDebugEnabled()) {
        LOGGER.debug(format(file, line, function, message));
      }
    } else if (LOGGER.isTraceEnabled()) {
      LOGGER.trace(format(file, line, function, message));
    }
  }

  private static String format(String file, int line, String function, String message) {
    return function + "() " + file + ":" + line + ": " + message.strip();
  }

  public static boolean isExpectedAgain(String message) {
    return message != null && message.contains("Resource temporarily unavailable");
  }

  /** librpma's threshold from the logger's level, so nothing is formatted that would be dropped. */
  public static int threshold() {
    if (LOGGER.isTraceEnabled()) {
      return DEBUG;
    }
    // ERROR lines pass a WARNING threshold (librpma's levels count down to FATAL)
    return LOGGER.isDebugEnabled() ? NOTICE : WARNING;
  }

  /** The last error librpma logged on this thread since the last call, or null; forgets it. */
  public static String takeLastError() {
    String error = LAST_ERROR.get();
    LAST_ERROR.remove();
    return error;
  }

  /** Says why librpma's log is not routed; at start, once. */
  static void warnNotRouted(int rc) {
    LOGGER.warn("cannot route librpma's log to " + LOGGER_NAME + ": error " + rc);
  }
}
