package dev.rpma.vertx;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What a side hands over so that the other can write, read and flush its region: its peer
 * configuration and the region's descriptor. Fits in a server's accept private data.
 *
 * <p>Wire format (version 1), self-delimiting, so the zeros the CM pads private data with are
 * ignored: the 4 ASCII bytes {@code RPMO}, one byte of version ({@value #VERSION}), one byte N,
 * N bytes of peer configuration descriptor, one byte M, M bytes of region descriptor. A C peer
 * can write and read it as easily. Applications are free to use any other layout; this one is
 * only a convenience, and its magic and version make a mix-up (a bare descriptor, another
 * format, a newer version) an error that says so rather than a region that is not the one meant.
 *
 * @param peerConfig the offering side's peer configuration (its persistence capabilities)
 * @param regionDescriptor the offered region's descriptor, from {@link MemoryRegion#descriptor()}
 *
 * @since 0.1.0
 */
public record RegionOffer(PeerConfig peerConfig, byte[] regionDescriptor) {

  /** The format's version this library writes and reads. */
  public static final int VERSION = 1;

  private static final byte[] MAGIC = {'R', 'P', 'M', 'O'};
  private static final int HEADER = MAGIC.length + 1;

  /**
   * An offer of a region.
   *
   * @param peerConfig the offering side's peer configuration
   * @param regionDescriptor the offered region's descriptor
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the descriptor is empty or longer than 255 bytes
   */
  public RegionOffer {
    Objects.requireNonNull(peerConfig, "peerConfig");
    Objects.requireNonNull(regionDescriptor, "regionDescriptor");
    if (regionDescriptor.length == 0 || regionDescriptor.length > 255) {
      throw new IllegalArgumentException("a region descriptor has 1 to 255 bytes, got "
          + regionDescriptor.length + ": pass MemoryRegion.descriptor()");
    }
    regionDescriptor = regionDescriptor.clone();
  }

  /**
   * The offer of a local region.
   *
   * @param peerConfig this side's peer configuration
   * @param region the region to offer
   * @return the offer
   */
  public static RegionOffer of(PeerConfig peerConfig, MemoryRegion region) {
    return new RegionOffer(peerConfig, region.descriptor());
  }

  /**
   * The offer in its wire format, e.g. for {@link RpmaConnectionRequest#accept(byte[])}.
   *
   * @return a new array, at most 2 + 5 + the two descriptors' lengths
   */
  public byte[] toBytes() {
    byte[] config = peerConfig.descriptor();
    return ByteBuffer.allocate(HEADER + 1 + config.length + 1 + regionDescriptor.length)
        .put(MAGIC).put((byte) VERSION)
        .put((byte) config.length).put(config)
        .put((byte) regionDescriptor.length).put(regionDescriptor)
        .array();
  }

  /**
   * Reads an offer back; bytes after it (the CM's padding) are ignored.
   *
   * @param bytes what {@link #toBytes()} made, possibly followed by padding
   * @return the offer
   * @throws IllegalArgumentException if the bytes are not an offer of this version, with why
   */
  public static RegionOffer fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (isAllZero(bytes)) {
      throw new IllegalArgumentException("not a region offer: the peer sent no private data ("
          + bytes.length + " zero bytes: the RDMA CM pads what it delivers with zeros, and"
          + " sends zeros when nothing was given). The peer must send RegionOffer.toBytes()"
          + " with its accept (or its connect)");
    }
    if (bytes.length < HEADER || !ByteBuffer.wrap(bytes, 0, MAGIC.length).equals(
        ByteBuffer.wrap(MAGIC))) {
      throw new IllegalArgumentException("not a region offer: " + bytes.length + " bytes that do"
          + " not start with RPMO (a bare region descriptor? decode it with"
          + " RemoteMemoryRegion.fromDescriptor; an offer comes from RegionOffer.toBytes)");
    }
    in.position(MAGIC.length);
    int version = Byte.toUnsignedInt(in.get());
    if (version != VERSION) {
      throw new IllegalArgumentException("a region offer of version " + version
          + ", this library reads version " + VERSION + ": use the same vertx-rpma on both sides");
    }
    byte[] config = field(in, "peer configuration");
    byte[] descriptor = field(in, "region descriptor");
    return new RegionOffer(PeerConfig.fromDescriptor(config), descriptor);
  }

  /** Empty, or zeros only: what the RDMA CM delivers when the peer sent nothing. */
  private static boolean isAllZero(byte[] bytes) {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** One length byte, then that many bytes; refused if it runs past the end. */
  private static byte[] field(ByteBuffer in, String what) {
    int length = in.hasRemaining() ? Byte.toUnsignedInt(in.get()) : -1;
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("a truncated region offer: its " + what + " runs past"
          + " its " + in.limit() + " bytes");
    }
    byte[] field = new byte[length];
    in.get(field);
    return field;
  }

  /**
   * Applies the peer configuration to the connection (persistent flush relies on it) and
   * decodes the region; the caller closes the region when done.
   *
   * @param connection the connection to the side that made the offer
   * @return the offered region, to write, read and flush through {@code connection}
   * @throws IllegalArgumentException if the descriptor is not one
   */
  public RemoteMemoryRegion applyTo(RpmaConnection connection) {
    RemoteMemoryRegion region = RemoteMemoryRegion.fromDescriptor(regionDescriptor);
    connection.applyRemotePeerConfig(peerConfig);
    return region;
  }
}
