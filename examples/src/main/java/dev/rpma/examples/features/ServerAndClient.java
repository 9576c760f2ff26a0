package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import java.nio.ByteBuffer;

/**
 * What several examples start from: a server that offers one region of ordinary memory to
 * whoever connects, and a client connected to it that holds the offered region and a local
 * one of the same size (both registered for writes and reads).
 *
 * @param client the client's connection
 * @param remote the server's region, as the client addresses it
 * @param local the client's region
 * @param serverMemory the server's region, as the server sees it (the same JVM here)
 */
record ServerAndClient(RpmaConnection client, RemoteMemoryRegion remote, MemoryRegion local,
    MemoryRegion serverMemory) {

  /** Listens on {@code port} and connects to it with {@code clientOptions}. */
  static ServerAndClient open(RpmaPeer peer, String address, int port, int size,
      ConnectionOptions clientOptions) {
    MemoryRegion serverMemory = await(peer.register(ByteBuffer.allocateDirect(size),
        MemoryUsage.WRITE_DST, MemoryUsage.READ_SRC));
    // not persistent memory: PeerConfig.create(false); a flush then needs FlushType.VISIBILITY
    byte[] offer = RegionOffer.of(PeerConfig.create(false), serverMemory).toBytes();
    await(peer.listen(port, address, new ConnectionOptions(), request -> request.accept(offer)));
    RpmaConnection client = await(peer.connect(new RpmaConnectOptions()
        .setHost(address).setPort(port)
        .setConnectionOptions(clientOptions)));
    RemoteMemoryRegion remote = RegionOffer.fromBytes(client.remotePrivateData())
        .applyTo(client);
    MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(size),
        MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST));
    return new ServerAndClient(client, remote, local, serverMemory);
  }
}
