package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rpma.vertx.RpmaCompletionException;
import org.junit.jupiter.api.Test;

/**
 * The API's work completion statuses are written in Java (so the API loads no native and a
 * user can switch on them); each must be the value verbs.h gives its name, read through the
 * JNI library as NativeConstants reads every other native value.
 */
class CompletionStatusConstantsTest {

  @Test
  void remoteAccessErrorIsVerbsValue() {
    assertEquals(fromC("IBV_WC_REM_ACCESS_ERR"), RpmaCompletionException.REM_ACCESS_ERR);
  }

  @Test
  void retryExceededErrorIsVerbsValue() {
    assertEquals(fromC("IBV_WC_RETRY_EXC_ERR"), RpmaCompletionException.RETRY_EXC_ERR);
  }

  @Test
  void flushErrorIsVerbsValue() {
    assertEquals(fromC("IBV_WC_WR_FLUSH_ERR"), RpmaCompletionException.WR_FLUSH_ERR);
  }

  @Test
  void theStatusesAreCaseLabels() {
    assertEquals("remote access", kind(RpmaCompletionException.REM_ACCESS_ERR));
    assertEquals("retries", kind(RpmaCompletionException.RETRY_EXC_ERR));
    assertEquals("flushed", kind(RpmaCompletionException.WR_FLUSH_ERR));
  }

  private static String kind(int status) {
    switch (status) {
      case RpmaCompletionException.REM_ACCESS_ERR:
        return "remote access";
      case RpmaCompletionException.RETRY_EXC_ERR:
        return "retries";
      case RpmaCompletionException.WR_FLUSH_ERR:
        return "flushed";
      default:
        return "other";
    }
  }

  private static int fromC(String name) {
    Native.ensureLoaded();
    return Native.constant(name);
  }
}
