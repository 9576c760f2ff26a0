package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeError;

import dev.rpma.vertx.PeerConfig;
import java.util.Objects;

/** A peer configuration as a value: librpma's object lives only while it is converted. */
public final class PeerConfigImpl implements PeerConfig {

  private final boolean directWriteToPmem;
  private final byte[] descriptor;

  private PeerConfigImpl(boolean directWriteToPmem, byte[] descriptor) {
    this.directWriteToPmem = directWriteToPmem;
    this.descriptor = descriptor;
  }

  public static PeerConfig create(boolean directWriteToPmem) {
    Native.ensureLoaded();
    long pcfg = Errors.check("rpma_peer_cfg_new", Native.peerCfgNew(directWriteToPmem));
    try {
      byte[] descriptor = Native.peerCfgDescriptor(pcfg);
      if (descriptor == null) {
        throw new IllegalStateException("rpma_peer_cfg_get_descriptor failed");
      }
      return new PeerConfigImpl(directWriteToPmem, descriptor);
    } finally {
      Native.peerCfgDelete(pcfg);
    }
  }

  public static PeerConfig fromDescriptor(byte[] descriptor) {
    Objects.requireNonNull(descriptor, "descriptor");
    Native.ensureLoaded();
    long pcfg = Native.peerCfgFromDescriptor(descriptor);
    if (NativeError.isError(pcfg)) {
      throw new IllegalArgumentException("not a valid peer configuration descriptor: "
          + Errors.rpma("rpma_peer_cfg_from_descriptor", pcfg).getMessage());
    }
    try {
      int direct = Native.peerCfgDirectWrite(pcfg);
      if (direct < 0) {
        throw Errors.rpma("rpma_peer_cfg_get_direct_write_to_pmem", direct);
      }
      return new PeerConfigImpl(direct == 1, descriptor.clone());
    } finally {
      Native.peerCfgDelete(pcfg);
    }
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
