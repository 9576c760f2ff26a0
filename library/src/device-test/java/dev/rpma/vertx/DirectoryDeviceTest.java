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
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Servers found by name through a real cluster (two clustered Vert.x, Hazelcast on loopback,
 * in one JVM: the server's node and the client's), connected to over the device. Across two
 * guests: scripts/testbed/cluster-hosts.sh.
 */
@Tag("rdma")
@Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DirectoryDeviceTest {

  private static final int SIZE = 4096;
  /** The first Hazelcast of a cold JVM in the emulated guest took 97 s to start (class loads). */
  private static final Duration START = Duration.ofMinutes(5);

  private static Vertx serverNode;
  private static Vertx clientNode;
  /**
   * The server side's peer, region and server, held until the class ends: only the region's
   * descriptor leaves publishServer, and a region whose facade is unreachable is deregistered
   * by the library's safety net (ForgottenRegions) at its next call, after which a write into
   * it fails with a remote access error (seen once in a fresh-clone run).
   */
  private static final List<Object> serverSide = new ArrayList<>();

  /**
   * One cluster for the class: a node's start costs the guest a minute or more. Tagged
   * transport-independent (the epoll pass only): the nodes' Vert.x runs on epoll whatever the
   * pass (ClusteredVertx prefers the native transport, as an application's does), and nothing
   * here is the loop's (the directory reaches a connection through its engine, the same on
   * both).
   */
  @BeforeAll
  static void cluster() {
    String cluster = "rpma-directory-device-" + UUID.randomUUID();
    serverNode = await(ClusteredVertx.start(cluster, "127.0.0.1", List.of("127.0.0.1"), true,
        ClusteredVertx.GUEST_MAX_NO_HEARTBEAT_SECONDS), START);
    clientNode = await(ClusteredVertx.start(cluster, "127.0.0.1", List.of("127.0.0.1"), true,
        ClusteredVertx.GUEST_MAX_NO_HEARTBEAT_SECONDS), START);
  }

  @AfterAll
  static void leave() {
    Future.join(close(clientNode), close(serverNode)).toCompletionStage()
        .toCompletableFuture().handle((v, e) -> null).join(); // a terminated node fails its close
    serverSide.clear();
  }

  private static Future<Void> close(Vertx node) {
    return node == null ? Future.succeededFuture() : node.close();
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
    serverSide.addAll(List.of(peer, region, server));
    return server;
  }

  @Test
  @Order(1)
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

  /** Last: the server's node is out of the cluster after it. */
  @Test
  @Order(2)
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
        + ClusteredVertx.GUEST_MAX_NO_HEARTBEAT_SECONDS + " s): " + why.getMessage());

    assertEquals(CloseReason.NODE_LEFT, ConnectionEndedException.of(why));
    assertTrue(why.getMessage().contains("the cluster manager reports node"), why.getMessage());
    assertTrue(why.getMessage().contains("\"" + name + "\""), why.getMessage());
    Throwable after = awaitFailure(connection.read(local, 0, remote, 0, 8));
    assertInstanceOf(RpmaConnectionClosedException.class, after);
    assertInstanceOf(RpmaNothingPublishedException.class, awaitFailure(directory.lookup(name)));
  }
}
