package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RdmaFreeHooks;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * librpma's lines go through Vert.x's logging facade; the tests' classpath has no SLF4J or
 * Log4j binding, so the facade's delegate is java.util.logging, which they capture.
 */
class RpmaLogTest {

  @Test
  void librpmasErrorLinesArriveAsDebugDetailNotAsErrors() {
    List<LogRecord> records = capture(Level.FINE, () ->
        // librpma logs why it finds no device for an address it cannot bind; the caller gets
        // the same failure as an exception
        RdmaFreeHooks.tryOpenWithoutDevice("127.0.0.1"));

    assertFalse(records.isEmpty(), "librpma's error line reached the logging facade");
    records.forEach(r -> assertEquals(Level.FINE, r.getLevel(), r.getMessage()));
  }

  @Test
  void atTheDefaultLevelAFailureTheCallerIsToldOfLogsNothing() {
    List<LogRecord> records = capture(Level.INFO, () ->
        RdmaFreeHooks.tryOpenWithoutDevice("127.0.0.1"));

    assertTrue(records.isEmpty(), () -> "logged: " + records.get(0).getMessage());
  }

  @Test
  void theEagainOfANonBlockingCmFdIsNotLogged() {
    assertTrue(RpmaLog.isExpectedAgain(
        "rdma_get_cm_event() failed: Resource temporarily unavailable"));
    assertFalse(RpmaLog.isExpectedAgain("rdma_resolve_addr() failed: No such device"));
  }

  private static List<LogRecord> capture(Level level, Runnable action) {
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        records.add(r);
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger logger = Logger.getLogger(RpmaLog.LOGGER_NAME);
    Level before = logger.getLevel();
    logger.setLevel(level);
    logger.addHandler(handler);
    try {
      action.run();
      return records;
    } finally {
      logger.removeHandler(handler);
      logger.setLevel(before);
    }
  }
}
