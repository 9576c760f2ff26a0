package dev.rpma.vertx;

import dev.rpma.vertx.impl.PeerConfigImpl;

/**
 * A peer's capabilities that the other side needs to know (librpma's rpma_peer_cfg): today,
 * whether RDMA writes land directly in persistent memory, which decides how a persistent
 * flush is carried out. Travels as bytes ({@link #descriptor()}), e.g. in private data.
 */
public interface PeerConfig {

  static PeerConfig create(boolean directWriteToPmem) {
    return PeerConfigImpl.create(directWriteToPmem);
  }

  /** @throws IllegalArgumentException if the bytes are not a valid peer configuration */
  static PeerConfig fromDescriptor(byte[] descriptor) {
    return PeerConfigImpl.fromDescriptor(descriptor);
  }

  boolean directWriteToPmem();

  byte[] descriptor();
}
