package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.MemoryUsage;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** A null buffer or usages is named as null, not as "not direct". */
class RegionRegistrationCheckTest {

  @Test
  void aNullBufferIsNamed() {
    String why = RegionRegistration.check(null, EnumSet.of(MemoryUsage.SEND));

    assertTrue(why.startsWith("buffer must not be null"), why);
  }

  @Test
  void nullUsagesAreNamed() {
    String why = RegionRegistration.check(ByteBuffer.allocateDirect(64), null);

    assertTrue(why.startsWith("usages must not be null"), why);
  }

  @Test
  void aHeapBufferIsStillToldToBeDirect() {
    String why = RegionRegistration.check(ByteBuffer.allocate(64), EnumSet.of(MemoryUsage.SEND));

    assertTrue(why.contains("only a direct ByteBuffer"), why);
  }
}
