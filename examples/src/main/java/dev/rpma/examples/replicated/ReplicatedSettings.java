package dev.rpma.examples.replicated;

import dev.rpma.examples.LogSettings;
import dev.rpma.examples.Settings;
import dev.rpma.vertx.ConnectionOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The replicated log's options, beside the log's own ({@link LogSettings}: --address, --port,
 * --records, --record-size, --window, --file, --timeout):
 * <pre>
 *   --servers=IP[:PORT],...   the log's servers (default port: --port)
 *   --quorum=W                servers that must hold a record durably before it is
 *                             acknowledged (default 2)
 *   --epoch=E                 the writer's epoch, its fencing token (default 1)
 *   --first=N                 the first sequence number to append (default 0); appends
 *                             run to --records
 *   --until-whole=true        a writer: once it lost a server, it stops early only when the
 *                             set is whole again (the server back and caught up:
 *                             {@link Rejoiner}) and --after-whole more records were
 *                             acknowledged, and past --records not at all
 *   --stop-at=N               a writer with --until-whole: records to append at least (default
 *                             --records); it goes on past them, up to --records, until whole
 *   --stop-file=FILE          a writer: starts no record once FILE exists (a schedule of faults
 *                             ends it: scripts/testbed/replicated.sh's nemesis)
 *   --after-whole=N           records acknowledged by the whole set before it stops (200)
 *   --pace-ms=P               a writer: starts a record at most every P ms (default 0: as
 *                             fast as the window allows), a log fed at a steady rate
 *   --expect=N                a writer in a cluster: how many servers must be published
 *                             before it starts (default 3), waiting up to --timeout
 *   --acked=FILE              the list of acknowledged records (default acked.txt)
 *   --set-file=FILE           where a new set of servers is recorded (default: printed only)
 *   --catch-up-from=IP[:PORT] a server: copy the log from this peer before serving
 *   --rejoin=true             a server with --catch-up-from coming back while the writer goes
 *                             on: listens after the copy, and reads what it still misses
 *                             from the peer once the writer is back ({@link CatchUp})
 *   --rejoin-from=IP[:PORT]   a server: when its writer loses it while it runs, it takes the
 *                             same writer back, then reads what it missed from this peer
 *                             before it serves readers again ({@link CatchUp#gap})
 *   --completion-timeout-ms=T how long an operation may take before its server is lost
 *                             (default 5000)
 *   --cluster=IP,...          join the Vert.x cluster (Hazelcast, TCP-IP join on these
 *                             members) and find servers by name instead of --servers
 *   --control-one-copy=true   a writer: the checker's control, breaking its quorum: each
 *                             record acknowledged once one server holds it, and written to
 *                             one server only while a server is away; the check must fail
 *   --name=NAME               a server: the name it is published under (default
 *                             replicated-log/ADDRESS:PORT); a writer: the prefix of its
 *                             servers' names (default replicated-log/)
 * </pre>
 */
record ReplicatedSettings(LogSettings log, List<ServerAddress> servers, int quorum, long epoch,
    long first, Path acked, Path setFile, ServerAddress catchUpFrom, int completionTimeoutMs,
    List<String> cluster, String name, boolean untilWhole, long stopAt, long afterWhole,
    int expect, boolean rejoin, int paceMs, Path stopFile, boolean oneCopyControl,
    ServerAddress rejoinFrom) {

  /** The prefix every server's name starts with. */
  static final String NAME_PREFIX = "replicated-log/";

  static ReplicatedSettings parse(String[] args) {
    Settings s = Settings.parse(args);
    LogSettings log = LogSettings.from(s);
    List<ServerAddress> servers = ServerAddress.parseList(s.string("servers", ""), log.port());
    int quorum = s.integer("quorum", 2, 1, 64);
    String setFile = s.string("set-file", null);
    String from = s.string("catch-up-from", null);
    String rejoinFrom = s.string("rejoin-from", null);
    return new ReplicatedSettings(log, servers, quorum, s.number("epoch", 1, 1, Long.MAX_VALUE),
        s.number("first", 0, 0, log.records() - 1),
        Path.of(s.string("acked", "acked.txt")), setFile == null ? null : Path.of(setFile),
        from == null ? null : ServerAddress.parse(from, log.port()),
        s.integer("completion-timeout-ms", 5000, 100, 600_000),
        Arrays.stream(s.string("cluster", "").split(",")).filter(m -> !m.isBlank()).toList(),
        s.string("name", null), Boolean.parseBoolean(s.string("until-whole", "false")),
        s.number("stop-at", log.records(), 0, log.records()),
        s.number("after-whole", 200, 0, log.records()), s.integer("expect", 3, 1, 64),
        Boolean.parseBoolean(s.string("rejoin", "false")), s.integer("pace-ms", 0, 0, 60_000),
        Optional.ofNullable(s.string("stop-file", null)).map(Path::of).orElse(null),
        Boolean.parseBoolean(s.string("control-one-copy", "false")),
        rejoinFrom == null ? null : ServerAddress.parse(rejoinFrom, log.port()));
  }

  /** The name a server is published under. */
  String serverName() {
    return name != null ? name : NAME_PREFIX + log.address() + ":" + log.port();
  }

  /** The prefix of the names a writer looks for. */
  String namePrefix() {
    return name != null ? name : NAME_PREFIX;
  }

  /** The servers, or a clear failure when none were given. */
  List<ServerAddress> requireServers() {
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("--servers=IP[:PORT],... names the log's servers");
    }
    if (servers.size() < quorum) {
      throw new IllegalArgumentException("--quorum=" + quorum + " needs at least as many"
          + " --servers, got " + servers.size());
    }
    return servers;
  }

  /** Queues that hold a window of appends (a write, a persist request and its reply each). */
  ConnectionOptions connectionOptions() {
    int inFlight = Math.max(64, 4 * log.window());
    return new ConnectionOptions().setSqSize(inFlight).setCqSize(inFlight)
        .setCompletionTimeoutMs(completionTimeoutMs);
  }
}
