package dev.rpma.examples.replicated;

import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where the replicated log's servers come from, and where the writer records the set it
 * writes to when a server is lost. Given as addresses ({@link StaticServerSet}), or found by
 * name in the Vert.x cluster ({@link DirectoryServerSet}).
 */
public interface ServerSet {

  /** The servers to write to, in the order to try them. */
  Future<List<ServerAddress>> servers();

  /**
   * Connects to one of the servers; {@code options} carry everything but the host and port. A
   * directory's connection also ends when the cluster sees the server's node leave.
   */
  default Future<RpmaConnection> connect(RpmaPeer peer, ServerAddress server,
      RpmaConnectOptions options) {
    return peer.connect(new RpmaConnectOptions(options).setHost(server.host())
        .setPort(server.port()));
  }

  /**
   * Records that writer {@code epoch} now writes to {@code current} only (a server was lost),
   * so that whoever takes over knows which servers hold the newest records.
   */
  Future<Void> record(long epoch, List<ServerAddress> current);

  /**
   * Told that the writer lost {@code server}: what {@link #servers()} says of it from now on
   * must be news (a server that came back), not what it said before.
   */
  default void lost(ServerAddress server) {
  }
}
