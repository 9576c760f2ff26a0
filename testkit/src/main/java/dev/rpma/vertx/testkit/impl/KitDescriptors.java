package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.RemoteDescriptors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A region's descriptor on the in-JVM device, and its decoding: a mark, the test kit it belongs
 * to, the region's handle, size and flush usages. Added to {@link RemoteDescriptors} when the
 * kit is made, so that {@code RemoteMemoryRegion.fromDescriptor} decodes it as librpma decodes
 * its own; a descriptor of another kit, or librpma's, is not taken.
 */
final class KitDescriptors implements Function<byte[], RemoteDescriptors.Decoded> {

  private static final byte[] MARK = "vertx-rpma-testkit".getBytes(StandardCharsets.US_ASCII);
  private static final int SIZE = MARK.length + 4 + 8 + 8 + 2;

  private final int kitId;

  KitDescriptors(int kitId) {
    this.kitId = kitId;
  }

  byte[] describe(KitRegion region) {
    return ByteBuffer.allocate(SIZE).put(MARK).putInt(kitId).putLong(region.handle())
        .putLong(region.memory().capacity())
        .put((byte) (region.usages().contains(MemoryUsage.FLUSH_PERSISTENT) ? 1 : 0))
        .put((byte) (region.usages().contains(MemoryUsage.FLUSH_VISIBILITY) ? 1 : 0))
        .array();
  }

  @Override
  public RemoteDescriptors.Decoded apply(byte[] descriptor) {
    if (descriptor.length != SIZE
        || !Arrays.equals(descriptor, 0, MARK.length, MARK, 0, MARK.length)) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(descriptor, MARK.length, SIZE - MARK.length);
    if (b.getInt() != kitId) {
      return null;
    }
    return new RemoteDescriptors.Decoded(b.getLong(), b.getLong(), b.get() != 0, b.get() != 0,
        () -> { });
  }
}
