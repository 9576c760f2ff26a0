package dev.rpma.vertx;

import dev.rpma.vertx.impl.PeerConfigImpl;

/**
 * A peer's capabilities that the other side needs to know (librpma's rpma_peer_cfg): today,
 * whether RDMA writes land directly in persistent memory, which decides how a persistent
 * flush is carried out. Travels as bytes ({@link #descriptor()}), e.g. in private data.
 *
 * @since 0.1.0
 */
public interface PeerConfig {

  /**
   * A configuration to hand to the other side.
   *
   * @param directWriteToPmem whether RDMA writes to this peer's memory land directly in
   *     persistent memory
   * @return the configuration
   */
  static PeerConfig create(boolean directWriteToPmem) {
    return PeerConfigImpl.create(directWriteToPmem);
  }

  /**
   * Decodes the configuration the other side sent.
   *
   * @param descriptor bytes made by {@link #descriptor()} or by librpma's
   *     {@code rpma_peer_cfg_get_descriptor}
   * @return the configuration
   * @throws IllegalArgumentException if the bytes are not a valid peer configuration
   */
  static PeerConfig fromDescriptor(byte[] descriptor) {
    return PeerConfigImpl.fromDescriptor(descriptor);
  }

  /**
   * Whether RDMA writes land directly in persistent memory.
   *
   * @return true if they do
   */
  boolean directWriteToPmem();

  /**
   * The configuration as bytes, for the other side's {@link #fromDescriptor}.
   *
   * @return a fresh copy of the bytes
   */
  byte[] descriptor();
}
