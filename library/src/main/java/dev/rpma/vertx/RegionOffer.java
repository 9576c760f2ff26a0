package dev.rpma.vertx;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What a side hands over so that the other can write, read and flush its region: its peer
 * configuration and the region's descriptor. Fits in a server's accept private data.
 *
 * <p>Wire format: one byte N, N bytes of peer configuration descriptor, then the region
 * descriptor. Applications are free to use any other layout; this one is only a convenience.
 */
public record RegionOffer(PeerConfig peerConfig, byte[] regionDescriptor) {

  public RegionOffer {
    Objects.requireNonNull(peerConfig, "peerConfig");
    Objects.requireNonNull(regionDescriptor, "regionDescriptor");
    regionDescriptor = regionDescriptor.clone();
  }

  public static RegionOffer of(PeerConfig peerConfig, MemoryRegion region) {
    return new RegionOffer(peerConfig, region.descriptor());
  }

  public byte[] toBytes() {
    byte[] config = peerConfig.descriptor();
    return ByteBuffer.allocate(1 + config.length + regionDescriptor.length)
        .put((byte) config.length).put(config).put(regionDescriptor).array();
  }

  /** @throws IllegalArgumentException if the bytes are not an offer */
  public static RegionOffer fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length < 1 || bytes.length < 1 + Byte.toUnsignedInt(bytes[0])) {
      throw new IllegalArgumentException("not a region offer: " + bytes.length + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    byte[] config = new byte[Byte.toUnsignedInt(in.get())];
    in.get(config);
    byte[] descriptor = new byte[in.remaining()];
    in.get(descriptor);
    return new RegionOffer(PeerConfig.fromDescriptor(config), descriptor);
  }

  /**
   * Applies the peer configuration to the connection (persistent flush relies on it) and
   * decodes the region; the caller closes the region when done.
   */
  public RemoteMemoryRegion applyTo(RpmaConnection connection) {
    RemoteMemoryRegion region = RemoteMemoryRegion.fromDescriptor(regionDescriptor);
    connection.applyRemotePeerConfig(peerConfig);
    return region;
  }
}
