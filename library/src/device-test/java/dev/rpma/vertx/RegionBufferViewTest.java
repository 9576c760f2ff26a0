package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A Vert.x Buffer over registered memory ({@link MemoryRegion#slice}): shared, fixed, checked. */
@Tag("rdma")
class RegionBufferViewTest extends DeviceTestBase {

  private static final byte[] HELLO = "hello, rdma".getBytes(StandardCharsets.US_ASCII);

  private Loopback pair;

  @BeforeEach
  void open() {
    pair = Loopback.open(vertx, new ConnectionOptions());
  }

  @AfterEach
  void close() {
    pair.close();
  }

  @Test
  void bytesSetThroughAViewAreWhatTheDeviceSends() {
    pair.clientRegion.slice(128, HELLO.length).setBytes(0, HELLO);

    await(pair.client.write(pair.remote, 256, pair.clientRegion, 128, HELLO.length));

    byte[] landed = new byte[HELLO.length];
    pair.serverRegion.buffer().get(256, landed);
    assertArrayEquals(HELLO, landed);
  }

  @Test
  void aViewTakenBeforeAWriteSeesWhatTheDeviceWroteWithoutACopy() {
    Buffer view = pair.serverRegion.slice(512, HELLO.length);
    pair.clientRegion.buffer().put(0, HELLO);

    await(pair.client.write(pair.remote, 512, pair.clientRegion, 0, HELLO.length));

    assertEquals(Buffer.buffer(HELLO), view);
  }

  @Test
  void aViewCannotGrowOffTheRegisteredMemory() {
    Buffer view = pair.clientRegion.slice(0, 16);
    pair.clientRegion.buffer().put(16, (byte) 7);

    assertThrows(IndexOutOfBoundsException.class, () -> view.appendByte((byte) 1));

    assertEquals(16, view.length());
    assertEquals(7, pair.clientRegion.buffer().get(16), "the byte after the view is untouched");
  }

  @Test
  void aViewBeyondTheRegionIsRefusedNamingTheRange() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> pair.clientRegion.slice(Loopback.REGION_SIZE - 8, 16));

    assertTrue(e.getMessage().contains("beyond its " + Loopback.REGION_SIZE + " bytes"),
        e.getMessage());
  }

  @Test
  void aClosedRegionGivesNoNewViewAndAnOldOneIsPlainMemory() {
    MemoryRegion region = await(pair.clientPeer.register(ByteBuffer.allocateDirect(4096),
        MemoryUsage.WRITE_SRC));
    Buffer before = region.slice(0, 8);

    await(region.close());

    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> region.slice(0, 8));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    before.setLong(0, 42);
    assertEquals(42, before.getLong(0));
  }
}
