package dev.rpma.bench;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Context;
import io.vertx.core.Future;

/**
 * The library under test: its public API, nothing else. Named after the variant it measures
 * ({@value #NAME}: on epoll without metrics; see {@link Variants} for the others).
 */
final class LibraryDriver implements Driver {

  static final String NAME = "vertx-rpma";

  private final String name;
  private final RpmaConnection connection;
  private final MemoryRegion local;
  private final RemoteMemoryRegion remote;

  LibraryDriver(RpmaConnection connection, MemoryRegion local, RemoteMemoryRegion remote) {
    this(NAME, connection, local, remote);
  }

  LibraryDriver(String name, RpmaConnection connection, MemoryRegion local,
      RemoteMemoryRegion remote) {
    this.name = name;
    this.connection = connection;
    this.local = local;
    this.remote = remote;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Context context() {
    return connection.context();
  }

  @Override
  public Future<Void> read(int size) {
    return connection.read(local, 0, remote, 0, size);
  }

  @Override
  public Future<Void> write(int size) {
    return connection.write(remote, 0, local, 0, size);
  }

  @Override
  public Future<Void> flush(int size) {
    return connection.flush(remote, 0, size, FlushType.VISIBILITY);
  }

  @Override
  public Counters counters() {
    CompletionStats s = connection.stats();
    return new Counters(s.completions(), s.drainCalls(), s.wakeups());
  }

  @Override
  public Future<Void> close() {
    return connection.close().eventually(remote::close);
  }
}
