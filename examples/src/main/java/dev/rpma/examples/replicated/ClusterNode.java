package dev.rpma.examples.replicated;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.rpma.examples.NativeVertx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;

/**
 * A clustered Vert.x on Hazelcast as the replicated log's nodes join it: TCP-IP join on the
 * given members (no multicast: the test bed's wire, 10.9.0.x), bound to this host's RDMA
 * interface, heartbeats short enough that a node powered off is seen gone within seconds
 * (Hazelcast's default is a minute), on the native transport the library needs.
 */
final class ClusterNode {

  /** Seconds without a heartbeat after which Hazelcast takes a member as dead. */
  static final int MAX_NO_HEARTBEAT_SECONDS = 5;

  private ClusterNode() {
  }

  static Future<Vertx> join(String host, List<String> members) {
    Config config = new Config();
    config.setClusterName("vertx-rpma-replicated-log");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    config.setProperty("hazelcast.max.no.heartbeat.seconds",
        String.valueOf(MAX_NO_HEARTBEAT_SECONDS));
    config.setProperty("hazelcast.logging.type", "jdk");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(5701).setPortAutoIncrement(true).setPortCount(20);
    network.getInterfaces().setEnabled(true).addInterface(host);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(members);
    VertxOptions options = NativeVertx.options()
        .setEventBusOptions(new EventBusOptions().setHost(host).setPort(0));
    return Vertx.builder().with(options)
        .withClusterManager(new HazelcastClusterManager(config))
        .buildClustered();
  }
}
