package dev.rpma.vertx;

import static dev.rpma.vertx.RdmaTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connect, write, close, many times: fds and native memory stay flat. 1,000 cycles; fewer
 * (RPMA_CYCLES) when a quick run is wanted.
 */
@Tag("rdma")
class CyclesTest {

  private static final int WARM_UP = 50;
  /** Allowed growth of resident memory outside the heap over all cycles: JIT code settles. */
  private static final long RSS_BOUND_KIB = 32 * 1024;
  /**
   * Allowed growth over the second half: by then malloc arenas and JIT code have settled (seen
   * flat within 1 MiB over 1,000 cycles), while a leak grows as much as in the first half;
   * 8 MiB over 500 cycles would be 16 KiB per connection.
   */
  private static final long SECOND_HALF_BOUND_KIB = 8 * 1024;

  @Test
  void connectCloseCyclesLeakNoFdAndNoNativeMemory() {
    String ip = RdmaTestSupport.deviceIp();
    int cycles = Integer.parseInt(System.getenv().getOrDefault("RPMA_CYCLES", "1000"));
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion target = await(serverPeer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_DST));
      MemoryRegion source = await(clientPeer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_SRC));
      RpmaServer server = await(serverPeer.listen(ip, port, new ConnectionOptions(),
          req -> req.accept(target.descriptor())));

      long fdsBefore = 0;
      long rssBefore = 0;
      long outsideHeapBefore = 0;
      long outsideHeapHalfway = 0;
      for (int i = 0; i < WARM_UP + cycles; i++) {
        if (i == WARM_UP) {
          System.gc();
          fdsBefore = ProcessResources.rdmaFds();
          rssBefore = ProcessResources.residentKib();
          outsideHeapBefore = ProcessResources.residentOutsideHeapKib();
        }
        if (i == WARM_UP + cycles / 2) {
          System.gc();
          outsideHeapHalfway = ProcessResources.residentOutsideHeapKib();
        }
        RpmaConnection conn = await(clientPeer.connect(ip, port, new ConnectionOptions(), null));
        try (RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
            conn.remotePrivateData())) {
          await(conn.write(remote, 0, source, 0, 64));
        }
        await(conn.close());
      }
      System.gc();
      long fdsAfter = ProcessResources.rdmaFds();
      long rssAfter = ProcessResources.residentKib();
      long outsideHeapAfter = ProcessResources.residentOutsideHeapKib();
      System.out.printf("%d cycles: RDMA fds %d -> %d, VmRSS %d -> %d KiB, outside the heap"
          + " %d -> %d -> %d KiB%n", cycles, fdsBefore, fdsAfter, rssBefore, rssAfter,
          outsideHeapBefore, outsideHeapHalfway, outsideHeapAfter);

      assertEquals(fdsBefore, fdsAfter, "no RDMA fd leaked over " + cycles + " cycles");
      assertTrue(outsideHeapAfter - outsideHeapHalfway < SECOND_HALF_BOUND_KIB,
          "resident memory outside the heap still grew by " + (outsideHeapAfter
              - outsideHeapHalfway) + " KiB over the second half (bound "
              + SECOND_HALF_BOUND_KIB + "): a leak");
      assertTrue(outsideHeapAfter - outsideHeapBefore < RSS_BOUND_KIB,
          "resident memory outside the heap grew by " + (outsideHeapAfter - outsideHeapBefore)
              + " KiB over " + cycles + " cycles (bound " + RSS_BOUND_KIB + ")");
      await(server.close());
    } finally {
      await(vertx.close());
    }
  }
}
