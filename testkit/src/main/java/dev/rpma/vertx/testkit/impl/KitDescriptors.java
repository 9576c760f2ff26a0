package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.RemoteDescriptors;
import dev.rpma.vertx.impl.seam.DeviceRefusals;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A region's descriptor on the in-JVM device, and its decoding: a mark, the region's handle
 * (which names its kit: {@link KitDevice}), size and flush usages. Added once to
 * {@link RemoteDescriptors}, so that {@code RemoteMemoryRegion.fromDescriptor} decodes it as
 * librpma decodes its own; librpma's descriptors are not taken. A region of another kit is
 * found on no connection of this one: its access fails as an unknown key does on a device.
 */
final class KitDescriptors implements Function<byte[], RemoteDescriptors.Decoded> {

  private static final byte[] MARK = "vertx-rpma-testkit".getBytes(StandardCharsets.US_ASCII);
  private static final int SIZE = MARK.length + 8 + 8 + 2;
  private static final KitDescriptors INSTANCE = new KitDescriptors();

  static {
    RemoteDescriptors.add(INSTANCE);
  }

  private KitDescriptors() {
  }

  /** The decoder, known to {@code RemoteMemoryRegion.fromDescriptor} from the first kit on. */
  static KitDescriptors instance() {
    return INSTANCE;
  }

  byte[] describe(KitRegion region) {
    return ByteBuffer.allocate(SIZE).put(MARK).putLong(region.handle())
        .putLong(region.memory().capacity())
        .put((byte) (region.usages().contains(MemoryUsage.FLUSH_PERSISTENT) ? 1 : 0))
        .put((byte) (region.usages().contains(MemoryUsage.FLUSH_VISIBILITY) ? 1 : 0))
        .array();
  }

  @Override
  public RemoteDescriptors.Decoded apply(byte[] descriptor) {
    int marked = Math.min(descriptor.length, MARK.length);
    if (descriptor.length < SIZE && Arrays.equals(descriptor, 0, marked, MARK, 0, marked)) {
      // one of the kit's cut short (or empty): refused as librpma refuses a short descriptor,
      // not handed on to librpma, which a host without it does not have
      throw DeviceRefusals.invalidRemoteDescriptor(descriptor.length,
          "rpma_mr_remote_from_descriptor failed: RPMA_E_INVAL (Invalid argument)");
    }
    if (descriptor.length != SIZE
        || !Arrays.equals(descriptor, 0, MARK.length, MARK, 0, MARK.length)) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(descriptor, MARK.length, SIZE - MARK.length);
    return new RemoteDescriptors.Decoded(b.getLong(), b.getLong(), b.get() != 0, b.get() != 0,
        () -> { });
  }
}
