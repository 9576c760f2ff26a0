package dev.rpma.examples.replicated;

import io.vertx.core.Future;
import java.util.List;

/**
 * Where the replicated log's servers come from, and where the writer records the set it
 * writes to when a server is lost. Given as addresses ({@link StaticServerSet}); a cluster's
 * directory can stand behind the same two calls.
 */
public interface ServerSet {

  /** The servers to write to, in the order to try them. */
  Future<List<ServerAddress>> servers();

  /**
   * Records that writer {@code epoch} now writes to {@code current} only (a server was lost),
   * so that whoever takes over knows which servers hold the newest records.
   */
  Future<Void> record(long epoch, List<ServerAddress> current);
}
