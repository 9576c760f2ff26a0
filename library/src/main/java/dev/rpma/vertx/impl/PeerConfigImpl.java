package dev.rpma.vertx.impl;


import dev.rpma.vertx.PeerConfig;
import java.util.Objects;

/**
 * A peer configuration as a value, and its descriptor made and read in Java, byte for byte as
 * librpma's rpma_peer_cfg_get_descriptor and _from_descriptor (one byte: direct write to
 * persistent memory), held to the installed librpma by {@code PeerConfigDescriptorTest}: so
 * that a JVM without librpma (the test kit's) can offer and read one.
 */
public final class PeerConfigImpl implements PeerConfig {

  /** librpma's rpma_peer_cfg_get_descriptor_size. */
  private static final int DESCRIPTOR_SIZE = 1;

  private final boolean directWriteToPmem;
  private final byte[] descriptor;

  private PeerConfigImpl(boolean directWriteToPmem, byte[] descriptor) {
    this.directWriteToPmem = directWriteToPmem;
    this.descriptor = descriptor;
  }

  public static PeerConfig create(boolean directWriteToPmem) {
    return new PeerConfigImpl(directWriteToPmem, new byte[] {(byte) (directWriteToPmem ? 1 : 0)});
  }

  public static PeerConfig fromDescriptor(byte[] descriptor) {
    Objects.requireNonNull(descriptor, "descriptor");
    // librpma reads the first byte and ignores any after it, as here
    if (descriptor.length < DESCRIPTOR_SIZE) {
      throw new IllegalArgumentException("not a valid peer configuration descriptor: "
          + "0 bytes, where librpma's is " + DESCRIPTOR_SIZE
          + " (the bytes of PeerConfig.descriptor() or rpma_peer_cfg_get_descriptor)");
    }
    return new PeerConfigImpl(descriptor[0] != 0, descriptor.clone());
  }

  @Override
  public boolean directWriteToPmem() {
    return directWriteToPmem;
  }

  @Override
  public byte[] descriptor() {
    return descriptor.clone();
  }
}
