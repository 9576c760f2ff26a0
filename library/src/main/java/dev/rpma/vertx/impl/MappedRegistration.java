package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.JniMapping;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * Registering a range of a file or device-DAX device: the arguments checked on the caller's
 * thread; on the peer's set-up worker, what the path is, whether the range fits the file, the
 * device and the memlock limit, then the shared mapping and its registration. Whatever fails
 * after the mapping unmaps it.
 */
final class MappedRegistration {

  private MappedRegistration() {
  }

  static Future<MemoryRegion> start(PeerImpl peer, Path path, long offset, long length,
      Set<MemoryUsage> usages) {
    ForgottenRegions.collect();
    ContextInternal ctx = peer.vertx().getOrCreateContext();
    String invalid = MappingChecks.arguments(path, offset, length, usages);
    if (invalid != null) {
      return ctx.failedFuture(new IllegalArgumentException(invalid));
    }
    if (!peer.librpmaToFree().registersMappings()) {
      return ctx.failedFuture(new UnsupportedOperationException("this peer's device ("
          + peer.deviceName() + ") does not register files: the test kit models regions of"
          + " direct buffers only; register a ByteBuffer, or run this test on a device"));
    }
    if (peer.isClosing()) {
      return ctx.failedFuture(new IllegalStateException("the peer is closed"));
    }
    Set<MemoryUsage> copy = EnumSet.copyOf(usages);
    return peer.blocking(ctx, () -> register(peer, ctx, path, offset, length, copy));
  }

  private static MemoryRegion register(PeerImpl peer, ContextInternal ctx, Path path,
      long offset, long length, Set<MemoryUsage> usages) {
    MappedFile file = MappedFile.inspect(path);
    RegionCaps caps = peer.regions().caps();
    String refused = MappingChecks.fits(file, offset, length, caps, peer.deviceName());
    if (refused == null) {
      refused = MappingChecks.memlock(length, caps.onDemandPaging());
    }
    if (refused != null) {
      throw new IllegalArgumentException(refused);
    }
    long[] sync = new long[1];
    long address = JniMapping.map(path.toString(), offset, length, sync);
    if (address < 0) {
      throw new IllegalArgumentException("cannot map [" + offset + ", " + (offset + length)
          + ") of " + path + " read-write and shared: mmap failed, "
          + JniMapping.errnoText((int) -address));
    }
    Mapping mapping = new Mapping(address, length, file.persistent());
    try {
      return registerMapping(peer, ctx, mapping, usages);
    } catch (RpmaException e) {
      mapping.discard();
      throw MappingChecks.refused(e, file, sync[0] == 1, caps, peer.deviceName(), length);
    } catch (RuntimeException e) {
      mapping.discard();
      throw e;
    }
  }

  /** rpma_mr_reg of the mapping, its descriptor, and the region owned by the peer. */
  private static MemoryRegionImpl registerMapping(PeerImpl peer, ContextInternal ctx,
      Mapping mapping, Set<MemoryUsage> usages) {
    return RegionRegistration.owned(peer, ctx,
        peer.librpma().registerMapping(mapping.address(), mapping.size(), usages), mapping, usages);
  }
}
