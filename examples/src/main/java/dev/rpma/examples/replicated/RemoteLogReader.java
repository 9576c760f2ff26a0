package dev.rpma.examples.replicated;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;

/**
 * Reads a server's log with one-sided RDMA reads, as a reader (no epoch, nothing fenced): a
 * server catching up copies a peer's log into its own region; the checker and a writer taking
 * over read what each server holds. The server's CPU does nothing but accept.
 */
final class RemoteLogReader {

  /**
   * Bytes per read: one read is one message of this many bytes, retransmitted whole by
   * Soft-RoCE in a loaded emulator when a packet of it is lost; 64 KiB kept a 256 KiB read's
   * retries from running past the completion timeout.
   */
  static final int CHUNK = 64 << 10;

  /** A read may wait this long: a copy is bulk work, a slow one is not a lost server. */
  static final int READ_TIMEOUT_MS = 60_000;

  private RemoteLogReader() {
  }

  /** A reader's connection to a server and the server's log through it. */
  record Open(RpmaConnection connection, RemoteMemoryRegion log) {
  }

  /**
   * Connects to {@code server} as a reader; fails (connection closed) if its log is shorter
   * than {@code length}. Call on the context the work should run on.
   */
  static Future<Open> open(RpmaPeer peer, ServerAddress server, long length,
      ConnectionOptions options) {
    return peer.connect(new RpmaConnectOptions().setHost(server.host()).setPort(server.port())
            .setConnectionOptions(new ConnectionOptions(options)
                .setCompletionTimeoutMs(READ_TIMEOUT_MS))
            .setPrivateData(ReplicaHello.reader().toBytes()))
        .compose(connection -> {
          RemoteMemoryRegion log = RegionOffer.fromBytes(connection.remotePrivateData())
              .applyTo(connection);
          if (log.size() < length) {
            connection.close();
            return Future.failedFuture(new IllegalStateException(server + " offers a log of "
                + log.size() + " bytes, shorter than the " + length + " to copy: are its"
                + " --records and --record-size the same?"));
          }
          return Future.succeededFuture(new Open(connection, log));
        });
  }

  /**
   * Copies bytes [0, length) of the log at {@code server} into {@code dst} at 0, then closes
   * the connection. Call on the context the work should run on.
   */
  static Future<Void> copy(RpmaPeer peer, ServerAddress server, MemoryRegion dst, long length,
      ConnectionOptions options) {
    return open(peer, server, length, options).compose(open -> readFrom(open.connection(),
        open.log(), dst, 0, length).eventually(open.connection()::close));
  }

  private static Future<Void> readFrom(RpmaConnection connection, RemoteMemoryRegion log,
      MemoryRegion dst, long at, long end) {
    if (at >= end) {
      return Future.succeededFuture();
    }
    long n = Math.min(CHUNK, end - at);
    return connection.read(dst, at, log, at, n)
        .compose(v -> readFrom(connection, log, dst, at + n, end));
  }
}
