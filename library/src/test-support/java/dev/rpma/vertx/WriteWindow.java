package dev.rpma.vertx;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a window of writes in flight on a connection's loop, each refilled when it succeeds,
 * until they fail: the load the fault tests break the connection under.
 */
final class WriteWindow {

  private final RpmaConnection connection;
  private final RemoteMemoryRegion remote;
  private final MemoryRegion local;
  private final int length;
  private final List<Future<Void>> writes = new ArrayList<>();
  private final Promise<Void> busy = Promise.promise();
  private final int busyAfter;

  private WriteWindow(RpmaConnection connection, RemoteMemoryRegion remote, MemoryRegion local,
      int length, int busyAfter) {
    this.connection = connection;
    this.remote = remote;
    this.local = local;
    this.length = length;
    this.busyAfter = busyAfter;
  }

  /** Starts {@code window} writes of {@code length} bytes from offset 0 to offset 0. */
  static WriteWindow start(RpmaConnection connection, RemoteMemoryRegion remote,
      MemoryRegion local, int window, int length) {
    WriteWindow w = new WriteWindow(connection, remote, local, length, 300);
    connection.context().runOnContext(v -> {
      for (int i = 0; i < window; i++) {
        w.next();
      }
    });
    return w;
  }

  private void next() {
    Future<Void> write = connection.write(remote, 0, local, 0, length);
    writes.add(write);
    write.onComplete(ar -> {
      if (writes.size() > busyAfter) {
        busy.tryComplete();
      }
      if (ar.succeeded()) {
        next();
      }
    });
  }

  /** Completes once a few hundred writes were issued: the connection is under load. */
  Future<Void> busy() {
    return busy.future();
  }

  /** Every write issued so far (read on the loop, where the list is written). */
  List<Future<Void>> issued() {
    return RdmaTestSupport.onLoop(connection, () -> List.copyOf(writes));
  }
}
