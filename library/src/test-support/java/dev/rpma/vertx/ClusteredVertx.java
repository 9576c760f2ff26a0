package dev.rpma.vertx;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A clustered Vert.x as users make one with Hazelcast, configured for this project's machines:
 * TCP-IP join on the given members (loopback on the host, the test bed's wire between guests),
 * no multicast, no auto-detection, bound to one interface only, and heartbeats short enough
 * that a node that dies is seen gone within seconds (Hazelcast's default is a minute).
 *
 * <p>The replicated log example makes its nodes with the same Hazelcast settings, and a few
 * more its runs in the guests needed (examples' {@code dev.rpma.examples.replicated.ClusterNode}:
 * lite members, longer operation timeouts, split halves merged sooner). They cannot share one
 * class: this one is the library's test support (test classes, not published), which the
 * examples' main code cannot depend on, and the library's tests cannot depend on the examples,
 * which depend on the library. A change to a setting both have belongs in both.
 */
public final class ClusteredVertx {

  /** Hazelcast's default port; each node of one host takes the next free one. */
  public static final int FIRST_PORT = 5701;
  /** Seconds without a heartbeat after which Hazelcast takes a member as dead, on the host. */
  public static final int MAX_NO_HEARTBEAT_SECONDS = 5;
  /**
   * The same in the test bed's emulated guests, Hazelcast's own default: there the JVM runs
   * 7-11x slower, its clock jumps, and a cold JVM's worker was blocked 60-90 s loading
   * Hazelcast's classes: 5 s split a two-node cluster in one JVM by itself, and 20 s made two
   * guests' nodes drop and rejoin each other for 4 minutes.
   */
  public static final int GUEST_MAX_NO_HEARTBEAT_SECONDS = 60;

  private ClusteredVertx() {
  }

  /**
   * Joins (or starts) the cluster {@code clusterName} from {@code host}.
   *
   * @param clusterName the cluster's name: only nodes with the same one join
   * @param host the interface Hazelcast and the event bus bind to (127.0.0.1, or a guest's
   *     10.9.0.x address)
   * @param members where the other nodes are, as Hazelcast's TCP-IP join takes them
   *     ({@code "127.0.0.1"}, {@code "10.9.0.1"}: an address without a port is tried on
   *     the node port range, {@link #FIRST_PORT} and the 19 after it)
   * @param nativeTransport whether the Vert.x runs on a native transport (RpmaPeer needs one)
   */
  public static Future<Vertx> start(String clusterName, String host, List<String> members,
      boolean nativeTransport) {
    return start(clusterName, host, members, nativeTransport, MAX_NO_HEARTBEAT_SECONDS);
  }

  /** The same, Hazelcast taking a member as dead after {@code maxNoHeartbeatSeconds}. */
  public static Future<Vertx> start(String clusterName, String host, List<String> members,
      boolean nativeTransport, int maxNoHeartbeatSeconds) {
    Config config = new Config();
    config.setClusterName(clusterName);
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
        String.valueOf(maxNoHeartbeatSeconds));
    // a few test nodes: 271 partitions (the default) only add migrations, which a slow guest
    // takes seconds for
    config.setProperty("hazelcast.partition.count", "11");
    // the guests' clock jumps (5:58 read where 3:20 was meant): with the default 300 s, a
    // guest's first node gave up joining ("Could not join cluster") with nobody to join
    config.setProperty("hazelcast.max.join.seconds", "3600");
    config.setProperty("hazelcast.logging.type", "jdk");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(FIRST_PORT).setPortAutoIncrement(true).setPortCount(20);
    network.getInterfaces().setEnabled(true).addInterface(host);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(members);
    VertxOptions options = new VertxOptions()
        .setPreferNativeTransport(nativeTransport)
        // under the test bed's emulator (TESTING.md, "The emulator's blocked-thread limit")
        .setMaxEventLoopExecuteTime(10).setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS)
        .setEventBusOptions(new EventBusOptions().setHost(host).setPort(0));
    return Vertx.builder().with(options)
        .withClusterManager(new HazelcastClusterManager(config))
        .buildClustered();
  }

  /** On the host's loopback, for host tests: the cluster's members on 127.0.0.1. */
  public static Future<Vertx> onLoopback(String clusterName) {
    return start(clusterName, "127.0.0.1", List.of("127.0.0.1"), false);
  }
}
