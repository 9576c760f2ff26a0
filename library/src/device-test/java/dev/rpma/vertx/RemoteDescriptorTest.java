package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A remote region's descriptor that is not whole is refused where it is decoded. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class RemoteDescriptorTest extends DeviceTestBase {

  @Test
  void aDescriptorCutShortIsRefusedNamingItsLengthAndTheFix() {
    RpmaPeer peer = await(TestProvider.open(vertx, RdmaTestSupport.deviceIp()));
    MemoryRegion region = await(peer.register(ByteBuffer.allocateDirect(4096),
        Loopback.SERVER_USAGES));
    byte[] descriptor = region.descriptor();
    byte[] cut = Arrays.copyOf(descriptor, descriptor.length - 1);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RemoteMemoryRegion.fromDescriptor(cut));

    assertTrue(e.getMessage().startsWith("not a valid remote memory region descriptor ("
        + cut.length + " bytes): rpma_mr_remote_from_descriptor failed: RPMA_E_INVAL"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Pass the bytes of MemoryRegion.descriptor() whole"),
        e.getMessage());
    await(peer.close());
  }
}
