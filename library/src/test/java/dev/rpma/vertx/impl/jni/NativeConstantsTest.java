package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Constants come from C by name; Java holds none of their values. */
class NativeConstantsTest {

  @Test
  void everyConstantJavaAsksForIsKnownToTheNativeLibrary() {
    // class initialisation throws if C does not know one of the names
    assertNotEquals(0, NativeConstants.RPMA_E_PROVIDER);
  }

  @Test
  void aNameTheNativeLibraryDoesNotKnowIsReportedAsUnknown() {
    Native.ensureLoaded();
    assertEquals(Integer.MIN_VALUE, Native.constant("RPMA_NO_SUCH_THING"));
  }

  @Test
  void eachRegionUsageIsItsOwnBit() {
    int all = NativeConstants.usageFlags(EnumSet.allOf(MemoryUsage.class));
    assertEquals(MemoryUsage.values().length, Integer.bitCount(all));
  }

  @Test
  void theTwoFlushTypesDiffer() {
    assertNotEquals(NativeConstants.flushType(FlushType.PERSISTENT),
        NativeConstants.flushType(FlushType.VISIBILITY));
  }

  @Test
  void theBindingClassPropertyIsGoneOnceTheLibraryIsLoaded() {
    Native.ensureLoaded();
    assertEquals(null, System.getProperty(NativeLibraryLoader.BINDING_PROPERTY));
  }
}
