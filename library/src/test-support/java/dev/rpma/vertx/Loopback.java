package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * A server and a client in one JVM, each with its own peer, on the device's address. The
 * server accepts with its region's descriptor as private data; the client decodes it.
 */
final class Loopback implements AutoCloseable {

  static final int REGION_SIZE = 64 * 1024;

  static final Set<MemoryUsage> SERVER_USAGES = EnumSet.of(MemoryUsage.READ_SRC,
      MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_PERSISTENT, MemoryUsage.FLUSH_VISIBILITY,
      MemoryUsage.SEND, MemoryUsage.RECV);
  static final Set<MemoryUsage> CLIENT_USAGES = EnumSet.of(MemoryUsage.READ_DST,
      MemoryUsage.WRITE_SRC, MemoryUsage.SEND, MemoryUsage.RECV);

  final RpmaPeer serverPeer;
  final RpmaPeer clientPeer;
  final MemoryRegion serverRegion;
  final MemoryRegion clientRegion;
  final RpmaServer server;
  final RpmaConnection client;
  final RpmaConnection serverSide;
  final RemoteMemoryRegion remote;

  private Loopback(RpmaPeer serverPeer, RpmaPeer clientPeer, MemoryRegion serverRegion,
      MemoryRegion clientRegion, RpmaServer server, RpmaConnection client,
      RpmaConnection serverSide, RemoteMemoryRegion remote) {
    this.serverPeer = serverPeer;
    this.clientPeer = clientPeer;
    this.serverRegion = serverRegion;
    this.clientRegion = clientRegion;
    this.server = server;
    this.client = client;
    this.serverSide = serverSide;
    this.remote = remote;
  }

  static Loopback open(Vertx vertx, ConnectionOptions options) {
    return open(vertx, options, SERVER_USAGES);
  }

  static Loopback open(Vertx vertx, ConnectionOptions options, Set<MemoryUsage> serverUsages) {
    return open(vertx, options, serverUsages, true);
  }

  /** {@code applyPeerConfig}: whether the client applies the server's peer configuration. */
  static Loopback open(Vertx vertx, ConnectionOptions options, Set<MemoryUsage> serverUsages,
      boolean applyPeerConfig) {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer serverPeer = await(TestProvider.open(vertx, ip));
    RpmaPeer clientPeer = await(TestProvider.open(vertx, ip));
    MemoryRegion serverRegion =
        await(serverPeer.register(ByteBuffer.allocateDirect(REGION_SIZE), serverUsages));
    MemoryRegion clientRegion =
        await(clientPeer.register(ByteBuffer.allocateDirect(REGION_SIZE), CLIENT_USAGES));
    Promise<RpmaConnection> accepted = Promise.promise();
    int port = RdmaTestSupport.nextPort();
    RpmaServer server = await(serverPeer.listen(port, ip, options,
        req -> req.accept(offer(serverRegion)).onComplete(accepted)));
    RpmaConnection client = await(clientPeer.connect(new RpmaConnectOptions().setHost(ip)
        .setPort(port).setConnectionOptions(options)));
    RpmaConnection serverSide = await(accepted.future());
    RemoteMemoryRegion remote = remoteOf(client, applyPeerConfig);
    return new Loopback(serverPeer, clientPeer, serverRegion, clientRegion, server, client,
        serverSide, remote);
  }

  /**
   * The region offered with the accept, with a peer configuration saying the server's memory
   * takes writes directly to persistence (on the test kit too: its descriptors are made and
   * read in Java, and it refuses a persistent flush without it, as librpma does).
   */
  private static byte[] offer(MemoryRegion serverRegion) {
    return RegionOffer.of(PeerConfig.create(true), serverRegion).toBytes();
  }

  private static RemoteMemoryRegion remoteOf(RpmaConnection client, boolean applyPeerConfig) {
    RegionOffer offer = RegionOffer.fromBytes(client.remotePrivateData());
    return applyPeerConfig ? offer.applyTo(client)
        : RemoteMemoryRegion.fromDescriptor(offer.regionDescriptor());
  }

  ByteBuffer serverBytes() {
    return serverRegion.buffer();
  }

  ByteBuffer clientBytes() {
    return clientRegion.buffer();
  }

  @Override
  public void close() {
    await(client.close());
    await(server.close());
    await(remote.close());
    await(clientPeer.close());
    await(serverPeer.close());
  }
}
