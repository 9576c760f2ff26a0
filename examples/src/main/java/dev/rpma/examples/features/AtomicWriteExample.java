package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * {@code atomicWrite}: 8 bytes that land in the server's memory all at once, never torn (a
 * reader of the slot sees the old value or the new one): a client publishes a counter into the
 * server's region, then reads it back over RDMA. {@code ./dev example atomic-write}.
 */
public final class AtomicWriteExample implements FeatureExample {

  private static final int UPDATES = 100;

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new AtomicWriteExample()));
  }

  @Override
  public String name() {
    return "atomic-write";
  }

  @Override
  public int defaultPort() {
    return 7311;
  }

  @Override
  public String run(String address, int port) {
    Vertx vertx = NativeVertx.create();
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));

      // server: one 8-byte slot, offered with its peer config; ordinary (not persistent)
      // memory, so the config says writes do not land directly in persistent memory
      ByteBuffer slot = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
      MemoryRegion published = await(peer.register(slot, MemoryUsage.WRITE_DST,
          MemoryUsage.READ_SRC));
      byte[] offer = RegionOffer.of(PeerConfig.create(false), published).toBytes();
      await(peer.listen(port, address, new ConnectionOptions(),
          request -> request.accept(offer)));

      // client: take the offer, then update the slot in place
      RpmaConnection conn = await(peer.connect(port, address));
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      for (long value = 1; value <= UPDATES; value++) {
        // offset 0: an atomic write's offset must be a multiple of 8
        await(conn.atomicWrite(remote, 0, value));
      }
      MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(8),
          MemoryUsage.READ_DST));
      await(conn.read(local, 0, remote, 0, 8));
      // the value's bytes are in this machine's order; a region's buffer() is a new view, in
      // Java's default big-endian order: say which order to read with
      long readBack = local.buffer().order(ByteOrder.nativeOrder()).getLong(0);
      long inServerMemory = slot.getLong(0);
      FeatureExample.check(readBack == UPDATES,
          "read back " + readBack + ", expected " + UPDATES);
      FeatureExample.check(inServerMemory == UPDATES,
          "the server's slot holds " + inServerMemory + ", expected " + UPDATES);

      remote.close();
      await(peer.close()); // closes the connection, the server and the regions too
      return "atomicWrite  " + UPDATES + " updates of one 8-byte slot, one after another\n"
          + "read back    " + readBack + " (over RDMA), " + inServerMemory
          + " in the server's buffer\n";
    } finally {
      await(vertx.close());
    }
  }
}
