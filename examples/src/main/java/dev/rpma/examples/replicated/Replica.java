package dev.rpma.examples.replicated;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;

/**
 * The writer's link to one server of the set: its connection (opened with the writer's
 * epoch), the log region it was offered, and the durable writer that makes a range durable
 * there.
 */
final class Replica {

  private final ServerAddress address;
  private final RpmaConnection connection;
  private final RemoteMemoryRegion log;
  private final DurableWriter durable;

  private Replica(ServerAddress address, RpmaConnection connection, RemoteMemoryRegion log,
      DurableWriter durable) {
    this.address = address;
    this.connection = connection;
    this.log = log;
    this.durable = durable;
  }

  /** Connects to {@code address} as writer {@code epoch}; call on the writer's context. */
  static Future<Replica> open(RpmaPeer peer, ServerSet set, ServerAddress address, long epoch,
      ConnectionOptions options) {
    return set.connect(peer, address, new RpmaConnectOptions().setConnectionOptions(options)
            .setPrivateData(ReplicaHello.writer(epoch).toBytes()))
        .compose(connection -> {
          RegionOffer offer = RegionOffer.fromBytes(connection.remotePrivateData());
          RemoteMemoryRegion log = offer.applyTo(connection);
          return DurableWriter.open(peer, connection, log, offer.peerConfig())
              .map(durable -> new Replica(address, connection, log, durable));
        });
  }

  /**
   * Writes {@code length} bytes of {@code src} at {@code srcOffset} to the log at
   * {@code offset} and makes them durable there: the write and the persist posted together
   * (operations on one connection are carried out in order), one round trip.
   */
  Future<Void> append(long offset, MemoryRegion src, int srcOffset, int length) {
    Future<Void> written = connection.write(log, offset, src, srcOffset, length);
    Future<Void> persisted = durable.persist(offset, length);
    return Future.all(written, persisted).mapEmpty();
  }

  ServerAddress address() {
    return address;
  }

  RpmaConnection connection() {
    return connection;
  }

  /** The key this writer was given: what fencing revokes. */
  RemoteMemoryRegion log() {
    return log;
  }

  Future<Void> close() {
    return durable.close().eventually(connection::close);
  }

  @Override
  public String toString() {
    return address.toString();
  }
}
