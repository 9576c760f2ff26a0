package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RdmaFreeHooks;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class RpmaLogTest {

  @Test
  void librpmasOwnLogLinesReachJavaUtilLogging() {
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
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
    RpmaLog.LOGGER.addHandler(capture);
    try {
      // librpma logs why it finds no device for an address it cannot bind
      RdmaFreeHooks.tryOpenWithoutDevice("127.0.0.1");

      assertFalse(records.isEmpty(), "librpma's error line was logged through JUL");
      assertTrue(records.get(0).getMessage() != null);
    } finally {
      RpmaLog.LOGGER.removeHandler(capture);
    }
  }

  @Test
  void theEagainOfANonBlockingCmFdIsNotLogged() {
    assertTrue(RpmaLog.isExpectedAgain(
        "rdma_get_cm_event() failed: Resource temporarily unavailable"));
    assertFalse(RpmaLog.isExpectedAgain("rdma_resolve_addr() failed: No such device"));
  }
}
