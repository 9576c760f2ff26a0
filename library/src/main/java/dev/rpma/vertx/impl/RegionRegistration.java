package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryUsage;
import io.vertx.core.internal.ContextInternal;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * Registering a buffer with a peer: what makes a buffer registrable (checked on the caller's
 * thread), and the registration itself (on the peer's set-up worker).
 */
final class RegionRegistration {

  private RegionRegistration() {
  }

  /** Why the buffer cannot be registered for these usages, or null. */
  static String check(ByteBuffer buffer, Set<MemoryUsage> usages) {
    if (buffer == null) {
      return "buffer must not be null: give a direct ByteBuffer (allocateDirect, or a"
          + " MappedByteBuffer)";
    }
    if (!buffer.isDirect()) {
      return "only a direct ByteBuffer (allocateDirect, or a MappedByteBuffer) can be registered";
    }
    if (usages == null) {
      return "usages must not be null: give at least one MemoryUsage";
    }
    if (usages.isEmpty()) {
      return "give at least one MemoryUsage";
    }
    String readOnly = readOnlyDestinations(buffer, usages);
    if (readOnly != null) {
      return readOnly;
    }
    return buffer.hasRemaining() ? null : "the buffer has no bytes to register";
  }

  /**
   * rpma_mr_reg of the whole view, its descriptor, and the region owned by the peer. Blocks: on
   * the peer's set-up worker, under its lock (so the peer is not deleted meanwhile).
   */
  static MemoryRegionImpl register(PeerImpl peer, ContextInternal ctx, ByteBuffer view,
      Set<MemoryUsage> usages) {
    return owned(peer, ctx, peer.librpma().register(view, usages), new BufferMemory(view), usages);
  }

  /**
   * A region just registered ({@code mr}), with its descriptor, owned by the peer; deregistered
   * here if that fails. On the peer's set-up worker, under its lock.
   */
  static MemoryRegionImpl owned(PeerImpl peer, ContextInternal ctx, ProviderPeer.Registered mr,
      RegionMemory memory, Set<MemoryUsage> usages) {
    ProviderPeer device = peer.librpma();
    RegionLife life = new RegionLife(peer, ctx, mr.handle(), memory);
    if (!peer.regions().owned().add(life)) {
      // the peer closed meanwhile: deregistered here, under the lock, before the peer's
      // delete (an asynchronous close could come after it: EBUSY, the region leaked)
      device.deregister(mr.handle());
      throw new IllegalStateException("the peer is closed");
    }
    return new MemoryRegionImpl(peer, life, memory, usages, mr.descriptor());
  }

  /** rpma_mr_dereg; on the peer's worker. */
  static void deregister(PeerImpl peer, long mr) {
    peer.librpmaToFree().deregister(mr);
  }

  /**
   * The device writes into a region used as a destination (by the peer's writes, our reads, our
   * receives): a buffer handed over as read-only must not become one.
   */
  private static String readOnlyDestinations(ByteBuffer buffer, Set<MemoryUsage> usages) {
    if (!buffer.isReadOnly()) {
      return null;
    }
    Set<MemoryUsage> writes = EnumSet.of(MemoryUsage.WRITE_DST, MemoryUsage.READ_DST,
        MemoryUsage.RECV);
    writes.retainAll(usages);
    return writes.isEmpty() ? null : "a read-only buffer cannot be registered for " + writes
        + ": the device would write into it; register a writable buffer, or only source usages"
        + " (READ_SRC, WRITE_SRC, SEND, FLUSH_*)";
  }
}
