package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Vertx;
import java.nio.ByteBuffer;

/**
 * Connect, write, close, {@code args[0]} times after a warm-up (the server on port
 * {@code args[1]}), in a JVM of its own that CyclesTest starts with a fixed, pre-touched heap;
 * prints one line, {@code CYCLES fds-before fds-after rss-before rss-halfway rss-after} (RSS in
 * KiB), then exits.
 */
public final class CyclesMain {

  private static final int WARM_UP = 50;

  private CyclesMain() {
  }

  public static void main(String[] args) {
    int cycles = Integer.parseInt(args[0]);
    String ip = RdmaTestSupport.deviceIp();
    int port = Integer.parseInt(args[1]); // the parent's: ports are numbered per JVM
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion target = await(serverPeer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_DST));
      MemoryRegion source = await(clientPeer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_SRC));
      RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(),
          req -> req.accept(target.descriptor())));
      long fdsBefore = 0;
      long rssBefore = 0;
      long rssHalfway = 0;
      for (int i = 0; i < WARM_UP + cycles; i++) {
        if (i == WARM_UP) {
          fdsBefore = ProcessResources.rdmaFds();
          rssBefore = settledRssKib();
        }
        if (i == WARM_UP + cycles / 2) {
          rssHalfway = settledRssKib();
        }
        RpmaConnection conn = await(clientPeer.connect(port, ip));
        RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(conn.remotePrivateData());
        try {
          await(conn.write(remote, 0, source, 0, 64));
        } finally {
          await(remote.close());
        }
        await(conn.close());
      }
      long fdsAfter = ProcessResources.rdmaFds();
      long rssAfter = settledRssKib();
      System.out.printf("CYCLES %d %d %d %d %d%n", fdsBefore, fdsAfter, rssBefore, rssHalfway,
          rssAfter);
      await(server.close());
    } finally {
      await(vertx.close());
    }
    System.exit(0);
  }

  /** VmRSS after a collection, so that direct buffers freed by their cleaners are gone. */
  private static long settledRssKib() {
    System.gc();
    return ProcessResources.residentKib();
  }
}
