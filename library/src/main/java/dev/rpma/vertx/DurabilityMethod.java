package dev.rpma.vertx;

/**
 * How a {@link DurableWriter} makes written bytes durable, as librpma distinguishes them; chosen
 * from the {@link PeerConfig} the server offers ({@link PeerConfig#directWriteToPmem()}).
 *
 * @since 0.1.0
 */
public enum DurabilityMethod {
  /**
   * The appliance persistency method: the server's memory takes RDMA writes directly into
   * persistent memory, so a {@link FlushType#PERSISTENT} flush (a read behind the writes on
   * this device) is enough. No server CPU is involved.
   */
  APM_FLUSH,
  /**
   * The general-purpose server persistency method (librpma's example 09): the client sends a
   * request naming the range, the server persists it (msync of a mapped file, {@code force})
   * and replies. For memory that is not persistent by itself, e.g. a file in the page cache.
   */
  SERVER_PERSIST
}
