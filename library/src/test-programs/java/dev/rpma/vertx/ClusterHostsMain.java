package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import dev.rpma.vertx.impl.engine.CloseReason;
import dev.rpma.vertx.impl.engine.ConnectionEndedException;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * RpmaDirectory across two test-bed guests, each a clustered Vert.x (Hazelcast, TCP-IP join on
 * the wire's 10.9.0.x, no multicast): the server's host publishes a server under a name with its
 * region's descriptor; the client's host finds it by name, connects by name, writes and reads
 * back, then powers the server's host off and checks that its connection ends on the cluster's
 * word (keepalive set far off), and that the name is no longer published.
 *
 * <p>Args: {@code server OWN_IP SEED_IP} or {@code client OWN_IP SEED_IP FAULT_COMMAND}
 * (scripts/testbed/cluster-hosts.sh). The client prints PASS or FAIL and exits 0 or 1.
 */
public final class ClusterHostsMain {

  static final String CLUSTER = "rpma-cluster-hosts";
  static final String NAME = "cross/log";
  static final int PORT = 7810;
  static final int SIZE = 4096;
  static final int RECORDS = 64;

  private ClusterHostsMain() {
  }

  public static void main(String[] args) throws Exception {
    String role = args[0];
    String ip = args[1];
    // a cold JVM in the emulated guest takes minutes to load and start Hazelcast
    Vertx vertx = await(ClusteredVertx.start(CLUSTER, ip, List.of(args[2]), true,
        ClusteredVertx.GUEST_MAX_NO_HEARTBEAT_SECONDS), Duration.ofMinutes(8));
    System.out.println("JOINED the cluster from " + ip);
    if (role.equals("server")) {
      serve(vertx, ip);
    } else {
      System.exit(client(vertx, ip, new Faults(args[3])) ? 0 : 1);
    }
  }

  private static void serve(Vertx vertx, String ip) throws InterruptedException {
    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    MemoryRegion region = await(peer.register(ByteBuffer.allocateDirect(SIZE),
        EnumSet.of(MemoryUsage.READ_SRC, MemoryUsage.WRITE_DST)));
    RpmaServer server = await(peer.listen(PORT, ip, new ConnectionOptions(),
        req -> req.accept(null)));
    RpmaPublished p = await(RpmaDirectory.create(vertx).publish(NAME, server, ip,
        region.descriptor()));
    System.out.println("PUBLISHED " + p);
    Thread.sleep(Long.MAX_VALUE); // until the client powers this host off
  }

  private static boolean client(Vertx vertx, String ip, Faults faults) {
    RpmaDirectory directory = RpmaDirectory.create(vertx);
    RpmaPublished found = null;
    long deadline = System.nanoTime() + Duration.ofMinutes(8).toNanos();
    while (found == null && System.nanoTime() < deadline) {
      try {
        found = await(directory.lookup(NAME));
      } catch (AssertionError notYet) { // RpmaNothingPublishedException while it starts
        sleep(500);
      }
    }
    if (found == null) {
      System.out.println("FAIL nothing was published under " + NAME + " within 8 minutes");
      return false;
    }
    System.out.println("FOUND " + found);
    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(found.offer());
    MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(SIZE),
        EnumSet.of(MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST)));
    // keepalive far off: the end below can only come from the cluster manager's word
    RpmaConnection connection = await(directory.connect(peer, NAME,
        new ConnectionOptions().setKeepAliveMs(600_000).setCompletionTimeoutMs(600_000)));
    Promise<Throwable> ended = Promise.promise();
    connection.closeHandler(ended::tryComplete);
    int length = SIZE / RECORDS;
    for (int i = 0; i < RECORDS; i++) {
      byte[] record = new byte[length];
      Arrays.fill(record, (byte) (i + 1));
      local.slice(i * length, length).setBytes(0, record);
      await(connection.write(remote, (long) i * length, local, (long) i * length, length));
    }
    local.slice(0, SIZE).setBytes(0, new byte[SIZE]);
    await(connection.read(local, 0, remote, 0, SIZE));
    for (int i = 0; i < RECORDS; i++) {
      if (local.slice(i * length, 1).getByte(0) != (byte) (i + 1)) {
        System.out.println("FAIL record " + i + " read back wrong");
        return false;
      }
    }
    System.out.println("WROTE and read back " + RECORDS + " records on the server found by name");

    long asked = System.nanoTime();
    faults.powerOffServer();
    long done = System.nanoTime();
    Throwable why = await(ended.future(), Duration.ofSeconds(240));
    long end = System.nanoTime();
    System.out.printf("the connection ended %d ms after the power-off request (%d ms after it"
        + " was done; Hazelcast max-no-heartbeat %d s): %s%n", (end - asked) / 1_000_000,
        (end - done) / 1_000_000, ClusteredVertx.GUEST_MAX_NO_HEARTBEAT_SECONDS,
        why.getMessage());
    if (ConnectionEndedException.of(why) != CloseReason.NODE_LEFT
        || !why.getMessage().contains("the cluster manager reports node")) {
      System.out.println("FAIL the connection ended for another reason: " + why);
      return false;
    }
    try {
      await(directory.lookup(NAME));
      System.out.println("FAIL " + NAME + " is still published after its node left");
      return false;
    } catch (AssertionError expected) {
      System.out.println("PASS found by name across hosts, written, and ended on the cluster's"
          + " word when the server's host lost power; the name went with its node");
      return true;
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
