package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.engine.CloseReason;
import dev.rpma.vertx.impl.engine.ConnectionEndedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Servers found by name through a real cluster (two clustered Vert.x, Hazelcast on loopback,
 * in one JVM: the server's node and the client's), connected to over the device. Across two
 * guests: scripts/testbed/cluster-hosts.sh.
 */
@Tag("rdma")
class DirectoryDeviceTest {

  private static final int SIZE = 4096;

  private Vertx serverNode;
  private Vertx clientNode;

  @BeforeEach
  void cluster() {
    String cluster = "rpma-directory-device-" + UUID.randomUUID();
    serverNode = await(ClusteredVertx.start(cluster, "127.0.0.1", java.util.List.of("127.0.0.1"),
        true));
    clientNode = await(ClusteredVertx.start(cluster, "127.0.0.1", java.util.List.of("127.0.0.1"),
        true));
  }

  @AfterEach
  void leave() {
    Future.join(clientNode.close(), serverNode.close()).toCompletionStage()
        .toCompletableFuture().handle((v, e) -> null).join(); // a terminated node fails its close
  }

  /** A server on the server's node, published under {@code name} with its region's descriptor. */
  private RpmaServer publishServer(String name) {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer peer = await(RpmaPeer.open(serverNode, ip));
    MemoryRegion region = await(peer.register(ByteBuffer.allocateDirect(SIZE),
        EnumSet.of(MemoryUsage.READ_SRC, MemoryUsage.WRITE_DST)));
    RpmaServer server = await(peer.listen(RdmaTestSupport.nextPort(), ip,
        new ConnectionOptions(), req -> req.accept(null)));
    await(RpmaDirectory.create(serverNode).publish(name, server, ip, region.descriptor()));
    return server;
  }

  @Test
  void aClientConnectsByNameToAServerPublishedOnAnotherNodeAndWritesItsRegion() {
    String name = "log/" + UUID.randomUUID();
    publishServer(name);
    RpmaDirectory directory = RpmaDirectory.create(clientNode);
    RpmaPeer peer = await(RpmaPeer.open(clientNode, RdmaTestSupport.deviceIp()));
    RpmaPublished published = await(directory.lookup(name));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(published.offer());
    MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(SIZE),
        EnumSet.of(MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST)));
    RpmaConnection connection = await(directory.connect(peer, name, new ConnectionOptions()));

    byte[] record = "found by name".getBytes(StandardCharsets.US_ASCII);
    local.slice(0, record.length).setBytes(0, record);
    await(connection.write(remote, 0, local, 0, record.length));
    local.slice(0, SIZE).setBytes(0, new byte[SIZE]);
    await(connection.read(local, 0, remote, 0, record.length));
    Buffer back = local.slice(0, record.length);
    assertEquals("found by name", back.toString(StandardCharsets.US_ASCII));
  }

  @Test
  void aConnectionByNameEndsAtOnceWhenTheClusterReportsThePublishingNodeGone() {
    String name = "log/" + UUID.randomUUID();
    publishServer(name);
    RpmaDirectory directory = RpmaDirectory.create(clientNode);
    RpmaPeer peer = await(RpmaPeer.open(clientNode, RdmaTestSupport.deviceIp()));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
        await(directory.lookup(name)).offer());
    MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(SIZE),
        EnumSet.of(MemoryUsage.READ_DST)));
    // keepalive far off: what ends the connection below can only be the cluster's word
    RpmaConnection connection = await(directory.connect(peer, name,
        new ConnectionOptions().setKeepAliveMs(600_000)));
    Promise<Throwable> ended = Promise.promise();
    connection.closeHandler(ended::tryComplete);
    await(connection.read(local, 0, remote, 0, 8));

    // the server's node drops out of the cluster while its process, its server and the wire
    // stay up: only the cluster manager knows
    long lost = System.nanoTime();
    ((HazelcastClusterManager) ((VertxInternal) serverNode).clusterManager())
        .getHazelcastInstance().getLifecycleService().terminate();
    Throwable why = await(ended.future());
    long ms = (System.nanoTime() - lost) / 1_000_000;
    System.out.println("the connection ended " + ms + " ms after the server's node was"
        + " terminated (Hazelcast's max-no-heartbeat: "
        + ClusteredVertx.MAX_NO_HEARTBEAT_SECONDS + " s): " + why.getMessage());

    assertEquals(CloseReason.NODE_LEFT, ConnectionEndedException.of(why));
    assertTrue(why.getMessage().contains("the cluster manager reports node"), why.getMessage());
    assertTrue(why.getMessage().contains("\"" + name + "\""), why.getMessage());
    Throwable after = awaitFailure(connection.read(local, 0, remote, 0, 8));
    assertInstanceOf(RpmaConnectionClosedException.class, after);
    assertInstanceOf(RpmaNothingPublishedException.class, awaitFailure(directory.lookup(name)));
  }
}
