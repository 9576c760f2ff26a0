package dev.rpma.vertx;

import dev.rpma.vertx.impl.durable.DurableWriters;
import io.vertx.core.Future;

/**
 * Durable acknowledgements for writes into a server's region: {@link #persist} completes only
 * once the bytes written before it are durable on the server, whatever its memory is. The
 * method is chosen from the {@link PeerConfig} the server offered: {@link
 * DurabilityMethod#APM_FLUSH} when its memory takes writes directly into persistence, else
 * {@link DurabilityMethod#SERVER_PERSIST}, for which the server must accept with
 * {@link PersistService#accept}.
 *
 * <pre>{@code
 * RegionOffer offer = RegionOffer.fromBytes(connection.remotePrivateData());
 * RemoteMemoryRegion log = offer.applyTo(connection);
 * DurableWriter.open(peer, connection, log, offer.peerConfig()).compose(durable ->
 *     connection.write(log, at, local, 0, n)
 *         .and(durable.persist(at, n)));   // both posted at once, in order
 * }</pre>
 *
 * <p>Posted in call order on the connection, a persist covers the writes posted before it:
 * operations on one connection are carried out in order (the flush's read, or the request's
 * send, arrives after the writes). Both sides must use this library's {@link #WINDOW}.
 *
 * @since 0.1.0
 */
public interface DurableWriter {

  /**
   * Persist requests one writer has in flight with {@link DurabilityMethod#SERVER_PERSIST}
   * (more wait in the writer, in call order): the receives the server posts for them, and the
   * writer posts for the replies. Both connections' rqSize must be at least this.
   */
  int WINDOW = 16;

  /**
   * A writer over a connection, with the method the server's configuration calls for. With
   * {@link DurabilityMethod#SERVER_PERSIST} it registers a small region of its own and posts
   * {@link #WINDOW} receives on the connection: use no other receives on it.
   *
   * @param peer the peer the connection belongs to (its region is registered there)
   * @param connection the connection to the server
   * @param region the server's region the writes go to
   * @param offered the peer configuration the server offered ({@link RegionOffer#peerConfig()})
   * @return a Future completed with the writer, on the connection's context
   */
  static Future<DurableWriter> open(RpmaPeer peer, RpmaConnection connection,
      RemoteMemoryRegion region, PeerConfig offered) {
    return DurableWriters.open(peer, connection, region, offered);
  }

  /**
   * The method this writer uses.
   *
   * @return APM flush or server persist
   */
  DurabilityMethod method();

  /**
   * Makes {@code length} bytes at {@code offset} of the server's region durable, with the
   * writes posted on the connection before this call.
   *
   * @param offset where the range starts in the server's region
   * @param length the range's length, at least 1
   * @return a Future completed once the range is durable on the server; failed if the server
   *     could not persist it (with its reason) or the connection ended first
   * @throws IllegalArgumentException if the range does not lie in the region
   */
  Future<Void> persist(long offset, long length);

  /**
   * Stops the writer: requests still waiting fail, and so do later ones. The connection stays
   * open; the writer's small region is deregistered once the receives it posted complete, at
   * the latest when the connection ends (a receive cannot be taken back).
   *
   * @return a Future completed when the writer has stopped
   */
  Future<Void> close();
}
