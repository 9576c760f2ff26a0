package dev.rpma.vertx.testkit;

import static dev.rpma.vertx.testkit.KitPair.await;
import static dev.rpma.vertx.testkit.KitPair.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RangePersister;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the test kit does not model of regions is refused with the alternative, before anything
 * native is touched: regions mapped from files (the device suite's MappedRegionTest covers
 * them), and so the persister of such a region.
 */
class KitRegionsTest {

  private Vertx vertx;
  private RpmaPeer peer;

  @BeforeEach
  void kitPeer() {
    vertx = Vertx.vertx();
    peer = await(RpmaTestKit.create().openPeer(vertx, "10.0.2.15"));
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void registeringAFileIsRefusedNamingTheBufferAlternative() {
    Throwable failure = awaitFailure(peer.register(Path.of("/tmp/kit-log.dat"), 0, 1 << 20,
        EnumSet.of(MemoryUsage.WRITE_DST)));

    assertInstanceOf(UnsupportedOperationException.class, failure);
    assertTrue(failure.getMessage().contains("register a ByteBuffer"), failure.getMessage());
  }

  @Test
  void thePersisterOfABufferRegionIsRefusedNamingRegisterPath() {
    MemoryRegion region = await(peer.register(ByteBuffer.allocateDirect(4096),
        EnumSet.of(MemoryUsage.WRITE_DST)));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RangePersister.of(region));
    assertTrue(e.getMessage().contains("RpmaPeer.register(Path"), e.getMessage());
  }
}
