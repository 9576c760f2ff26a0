package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import io.vertx.core.Future;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;

/**
 * A peer's memory regions: registering direct buffers and ranges of files on its protection
 * domain (checked on the caller, registered on the peer's set-up worker), what its device
 * allows of regions, and the ownership node they close with: after the peer's connections and
 * shared receive queues, before its librpma peer is deleted.
 */
final class PeerRegions {

  private final PeerImpl peer;
  /** The regions it registered and not yet deregistered. */
  private final CloseFuture owned = new CloseFuture();

  PeerRegions(PeerImpl peer) {
    this.peer = peer;
  }

  /** The ownership node of its regions: add to it, remove when one is deregistered alone. */
  CloseFuture owned() {
    return owned;
  }

  Future<MemoryRegion> register(ByteBuffer buffer, Set<MemoryUsage> usages) {
    ForgottenRegions.collect();
    ContextInternal ctx = peer.vertx().getOrCreateContext();
    String invalid = RegionRegistration.check(buffer, usages);
    if (invalid != null) {
      return ctx.failedFuture(new IllegalArgumentException(invalid));
    }
    if (peer.isClosing()) {
      return ctx.failedFuture(new IllegalStateException("the peer is closed"));
    }
    ByteBuffer view = buffer.slice();
    return peer.blocking(ctx, () -> RegionRegistration.register(peer, ctx, view, usages));
  }

  Future<MemoryRegion> register(Path file, long offset, long length, Set<MemoryUsage> usages) {
    return MappedRegistration.start(peer, file, offset, length, usages);
  }

  /**
   * What its device allows of a region: on-demand paging, the largest size. Read from the
   * device when the peer opened: still answered once the peer is closed.
   */
  RegionCaps caps() {
    return peer.librpmaToFree().regionCaps();
  }

  /** Deregisters what is left (the peer's close, once its connections and queues closed). */
  Future<Void> close() {
    return owned.close();
  }
}
