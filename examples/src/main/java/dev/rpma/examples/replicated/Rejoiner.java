package dev.rpma.examples.replicated;

import dev.rpma.examples.Steps;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Brings lost servers back into the writer's set while it goes on appending: every
 * {@link #PERIOD_MS} it asks the server set for its servers (in a cluster: what is published
 * by name, a server that came back publishing itself again once it listens) and connects, as
 * the writer, to each that is not in the set. A server listens again only after it has copied
 * the log from a peer (ReplicaServer, --catch-up-from); what the writer appends while it copies
 * the server reads from the peer too once the writer is connected, before it says it is caught
 * up. Runs on the writer's context.
 */
final class Rejoiner {

  static final long PERIOD_MS = 2000;

  private final Vertx vertx;
  private final RpmaPeer peer;
  private final ServerSet set;
  private final ReplicatedAppender appender;
  private final ReplicatedSettings settings;
  private final LongSupplier nextSequence;
  private final Set<ServerAddress> connecting = new HashSet<>();
  private final Set<ServerAddress> toldFailing = new HashSet<>();
  private long timer = -1;

  Rejoiner(Vertx vertx, RpmaPeer peer, ServerSet set, ReplicatedAppender appender,
      ReplicatedSettings settings, LongSupplier nextSequence) {
    this.vertx = vertx;
    this.peer = peer;
    this.set = set;
    this.appender = appender;
    this.settings = settings;
    this.nextSequence = nextSequence;
  }

  /** Starts looking for lost servers; call on the writer's context. */
  void start() {
    timer = vertx.setPeriodic(PERIOD_MS, id -> look());
  }

  void stop() {
    vertx.cancelTimer(timer);
  }

  private void look() {
    if (appender.whole() || !connecting.isEmpty()) {
      return;
    }
    Set<ServerAddress> live = new HashSet<>();
    appender.live().forEach(r -> live.add(r.address()));
    set.servers().onSuccess(servers -> servers.stream()
        .filter(s -> !live.contains(s) && connecting.add(s)).forEach(this::connect));
  }

  private void connect(ServerAddress server) {
    ConnectionOptions options = settings.connectionOptions();
    Replica.open(peer, set, server, settings.epoch(), options)
        .onComplete(ar -> {
          connecting.remove(server);
          if (ar.succeeded()) {
            toldFailing.remove(server);
            appender.rejoin(ar.result(), nextSequence.getAsLong());
          } else if (toldFailing.add(server)) {
            System.out.println("replicated: " + server + " not back yet (retried every "
                + PERIOD_MS + " ms, said once): " + Steps.describe(ar.cause()));
          }
        });
  }

  /** What came back during the run, for the summary. */
  List<String> rejoins() {
    return appender.rejoins();
  }
}
