package dev.rpma.examples.replicated;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.RpmaDirectory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A clustered Vert.x on Hazelcast as the replicated log's nodes join it: TCP-IP join on the
 * given members (no multicast: the test bed's wire, 10.9.0.x), bound to this host's RDMA
 * interface, on the native transport the library needs; settings as the library's own
 * cross-guest run found them to hold in emulated guests: the library's test support's
 * {@code dev.rpma.vertx.ClusteredVertx} (library/src/test-support) has the same ones. One class
 * for both does not fit the module graph: that one is among the library's test classes, which
 * are not published and which this module's main code cannot depend on, and the library's tests
 * cannot depend on this module, which depends on the library. A change to a setting both have
 * belongs in both.
 *
 * <p>{@code main} starts three nodes on loopback as the guests' nodes start (a member, then
 * a member and a lite member joining it), lists the directory and records a set from the last,
 * loads the project's own classes ({@link ArchivedClasses}), and leaves: what a node loads on
 * either side of a join, run once on the build host to record a class-data archive
 * (scripts/replicated.sh), which the guests' cold JVMs then map instead of loading Hazelcast
 * and the log's classes class by class.
 */
final class ClusterNode {

  /**
   * Seconds without a heartbeat after which Hazelcast takes a member as dead: Hazelcast's own
   * default. In the emulated guests a cold JVM is blocked for a minute or more loading
   * Hazelcast, and sends no heartbeat meanwhile: with 5 s the three servers suspected each
   * other while starting, with 20 s the library's two-guest run dropped and rejoined members
   * for minutes. A powered-off server is noticed sooner anyway: its appends fail on the
   * completion watchdog (--completion-timeout-ms).
   */
  static final int MAX_NO_HEARTBEAT_SECONDS = 60;

  private ClusterNode() {
  }

  /**
   * Joins the cluster from {@code host}. A {@code lite} node (the writer) holds none of the
   * cluster map's partitions: its joining moves no data, and its leaving loses none.
   */
  static Future<Vertx> join(String host, List<String> members, boolean lite) {
    Config config = new Config();
    config.setLiteMember(lite);
    config.setClusterName("vertx-rpma-replicated-log");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    // an idle member's own bookkeeping, in an emulated guest a third of a core per node: the
    // metrics collected every 5 s and the health monitor (on the host, an idle member took
    // 1,220 ms of CPU a minute with them, 840-880 ms without; in the guests the two idle
    // servers of the replicated run took ~38 % of a host core each, 2026-12-02)
    config.getMetricsConfig().setEnabled(false);
    config.setProperty("hazelcast.health.monitoring.level", "OFF");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    config.setProperty("hazelcast.max.no.heartbeat.seconds",
        String.valueOf(MAX_NO_HEARTBEAT_SECONDS));
    // a few nodes: 271 partitions (the default) only add migrations, seconds each in a guest
    config.setProperty("hazelcast.partition.count", "11");
    // a guest's clock can jump: with the default 300 s a first node gave up joining
    config.setProperty("hazelcast.max.join.seconds", "3600");
    // a guest booted again joins while the host is loaded: with the default 60 s, its join's
    // operations timed out, the others suspected it and it went on as a cluster of its own
    config.setProperty("hazelcast.operation.call.timeout.millis", "300000");
    // and if the cluster splits all the same, the halves merge within seconds, not minutes
    // (Vert.x keeps its node ids through a merge: the directory's publications stay valid)
    config.setProperty("hazelcast.merge.first.run.delay.seconds", "20");
    config.setProperty("hazelcast.merge.next.run.delay.seconds", "20");
    config.setProperty("hazelcast.logging.type", "jdk");
    NetworkConfig network = config.getNetworkConfig();
    // at most two nodes a host (h0: a server and the writer): fewer ports to try when joining
    network.setPort(5701).setPortAutoIncrement(true).setPortCount(4);
    network.getInterfaces().setEnabled(true).addInterface(host);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(members);
    VertxOptions options = NativeVertx.options()
        // the emulator's blocked-thread limit (TESTING.md): Hazelcast's start blocks for long
        .setMaxEventLoopExecuteTime(10).setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS)
        .setEventBusOptions(new EventBusOptions().setHost(host).setPort(0));
    return Vertx.builder().with(options)
        .withClusterManager(new HazelcastClusterManager(config))
        .buildClustered();
  }

  /**
   * Starts a member, then a member and a lite member joining it, on loopback; lists the
   * directory and records a set from the lite one; loads the project's classes (the servers',
   * the writer's, the checkers'); leaves: the classes the guests' JVMs need loaded.
   */
  public static void main(String[] args) throws Exception {
    List<String> loopback = List.of("127.0.0.1");
    Vertx first = await(join("127.0.0.1", loopback, false), 120);
    Vertx second = await(join("127.0.0.1", loopback, false), 120);
    Vertx lite = await(join("127.0.0.1", loopback, true), 120);
    int found = await(RpmaDirectory.create(lite).list(ReplicatedSettings.NAME_PREFIX), 60)
        .size();
    DirectoryServerSet set = new DirectoryServerSet(lite, RpmaDirectory.create(lite),
        ReplicatedSettings.NAME_PREFIX);
    await(set.record(0, List.of()), 60);
    int loaded = ArchivedClasses.loadProjectClasses();
    System.out.println("cluster node: three joined on loopback, " + found + " published, left; "
        + loaded + " classes of the project's jars loaded");
    for (Vertx vertx : List.of(lite, second, first)) {
      await(vertx.close(), 60);
    }
    System.exit(0);
  }

  private static <T> T await(Future<T> future, int seconds) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }
}
