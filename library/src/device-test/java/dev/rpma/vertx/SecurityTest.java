package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A peer gets only the access a region was registered for, enforced by the device. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class SecurityTest extends DeviceTestBase {

  @Test
  void aPeerCannotReadARegionRegisteredOnlyAsAWriteDestination() {
    // no FLUSH_* usage either: librpma flushes with an RDMA read, so those grant remote read
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(),
        EnumSet.of(MemoryUsage.WRITE_DST))) {
      Throwable failure = Await.awaitFailure(
          pair.client.read(pair.clientRegion, 0, pair.remote, 0, 64));

      RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, e.status());
    }
  }

  @Test
  void aPeerCannotWriteARegionRegisteredOnlyAsAReadSource() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(),
        EnumSet.of(MemoryUsage.READ_SRC, MemoryUsage.FLUSH_VISIBILITY))) {
      Throwable failure = Await.awaitFailure(
          pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));

      RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, e.status());
    }
  }
}
