package dev.rpma.vertx;

import dev.rpma.vertx.impl.durable.PersistResponder;
import io.vertx.core.Future;

/**
 * The server's side of {@link DurabilityMethod#SERVER_PERSIST}: accepts a connection request
 * and, for the connection's life, persists the ranges its client's {@link DurableWriter} asks
 * for and replies. A server whose memory takes writes directly into persistence (it offers
 * {@code PeerConfig.create(true)}) needs none of this: plain {@link
 * RpmaConnectionRequest#accept} is enough.
 *
 * @since 0.1.0
 */
public final class PersistService {

  private PersistService() {
  }

  /**
   * Posts {@link DurableWriter#WINDOW} receives on the request, accepts it with
   * {@code privateData}, then serves persist requests for {@code region}: each range is checked
   * to lie in the region, persisted by {@code persister} on a worker, then acknowledged. The
   * connection's rqSize must be at least {@link DurableWriter#WINDOW}; use no other receives on
   * it. The service ends with the connection.
   *
   * @param peer the server's peer (a small region of the service's is registered there)
   * @param request the request to accept
   * @param privateData the accept's private data, e.g. a {@link RegionOffer} declaring
   *     {@code PeerConfig.create(false)}
   * @param region the region the client writes into
   * @param persister how a range of the region is made durable, e.g.
   *     {@link RangePersister#of(java.nio.MappedByteBuffer)}
   * @return a Future completed with the established connection
   */
  public static Future<RpmaConnection> accept(RpmaPeer peer, RpmaConnectionRequest request,
      byte[] privateData, MemoryRegion region, RangePersister persister) {
    return PersistResponder.accept(peer, request, privateData, region, persister);
  }
}
