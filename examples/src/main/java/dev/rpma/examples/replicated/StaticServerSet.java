package dev.rpma.examples.replicated;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Servers given by address ({@code --servers=IP:PORT,...}); a new set is appended as a line
 * ({@code epoch N: a:p,b:p}) to a file, if one was given, and printed.
 */
final class StaticServerSet implements ServerSet {

  private final Vertx vertx;
  private final List<ServerAddress> servers;
  private final Path recordFile;

  StaticServerSet(Vertx vertx, List<ServerAddress> servers, Path recordFile) {
    this.vertx = vertx;
    this.servers = List.copyOf(servers);
    this.recordFile = recordFile;
  }

  @Override
  public Future<List<ServerAddress>> servers() {
    return Future.succeededFuture(servers);
  }

  @Override
  public Future<Void> record(long epoch, List<ServerAddress> current) {
    String line = "epoch " + epoch + ": " + String.join(",",
        current.stream().map(ServerAddress::toString).toList());
    System.out.println("replicated: the set is now " + line);
    if (recordFile == null) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> {
      Files.writeString(recordFile, line + "\n", StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      return null;
    });
  }
}
