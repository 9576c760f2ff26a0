package dev.rpma.vertx.impl;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Who decodes a remote region's descriptor: librpma ({@code JniRemoteRegion}) unless a
 * provider other than librpma is in use in this JVM and knows the descriptor as its own (the
 * test kit's carry its mark). {@code RemoteMemoryRegion.fromDescriptor} is static: a
 * descriptor does not say which peer will use it, only who made it.
 */
public final class RemoteDescriptors {

  /** Decoders added by providers; each returns null for a descriptor not its own. */
  private static final List<Function<byte[], Decoded>> DECODERS = new CopyOnWriteArrayList<>();

  private RemoteDescriptors() {
  }

  /** Adds a provider's decoder (once per provider; a test kit adds its own when made). */
  public static void add(Function<byte[], Decoded> decoder) {
    if (!DECODERS.contains(decoder)) {
      DECODERS.add(decoder);
    }
  }

  /** The region {@code descriptor} describes, decoded by its maker. */
  static Decoded decode(byte[] descriptor) {
    for (Function<byte[], Decoded> decoder : DECODERS) {
      Decoded d = decoder.apply(descriptor);
      if (d != null) {
        return d;
      }
    }
    return JniProvider.decode(descriptor);
  }

  /**
   * A decoded remote region: its handle as operations post it, its size, the flushes it
   * supports, and how it is freed.
   */
  public record Decoded(long handle, long size, boolean persistentFlush,
      boolean visibilityFlush, Runnable delete) {
  }
}
