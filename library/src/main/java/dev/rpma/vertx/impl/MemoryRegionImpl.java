package dev.rpma.vertx.impl;


import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.engine.HeldRegion;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A registered region. Operations hold it (and so its buffer) from the call until their
 * completion; {@link #close()} deregisters once the last one is done.
 */
public final class MemoryRegionImpl implements MemoryRegion, HeldRegion, Closeable {

  private final PeerImpl peer;
  private final long handle;
  private final ByteBuffer buffer;
  private final Set<MemoryUsage> usages;
  /** The usages as bits of their ordinals: the per-operation check is one AND. */
  private final int usageBits;
  private final byte[] descriptor;
  private final RefCounted life;
  private final Promise<Void> deregistered;

  MemoryRegionImpl(PeerImpl peer, ContextInternal context, long handle, ByteBuffer buffer,
      Set<MemoryUsage> usages, byte[] descriptor) {
    this.peer = peer;
    this.handle = handle;
    this.buffer = buffer;
    this.usages = Collections.unmodifiableSet(EnumSet.copyOf(usages));
    int bits = 0;
    for (MemoryUsage u : usages) {
      bits |= 1 << u.ordinal();
    }
    this.usageBits = bits;
    this.descriptor = descriptor;
    this.deregistered = context.promise();
    this.life = new RefCounted(this::deregister);
  }

  @Override
  public ByteBuffer buffer() {
    return buffer.duplicate();
  }

  @Override
  public long size() {
    return buffer.capacity();
  }

  @Override
  public Set<MemoryUsage> usages() {
    return usages;
  }

  @Override
  public byte[] descriptor() {
    return descriptor.clone();
  }

  /** Its peer is closing. */
  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }

  @Override
  public Future<Void> close() {
    life.close();
    return deregistered.future();
  }

  private void deregister() {
    peer.blocking(() -> {
      RegionRegistration.deregister(handle);
      return null;
    })
        .onComplete(ar -> {
          peer.regions().remove(this);
          deregistered.handle(ar.mapEmpty());
        });
  }

  @Override
  public long handle() {
    return handle;
  }

  PeerImpl peer() {
    return peer;
  }

  boolean acquire() {
    return life.tryAcquire();
  }

  @Override
  public void release() {
    life.release();
  }

  /**
   * Null if {@code region} is one of {@code peer}'s (its protection domain) and allows
   * {@code usage} over [offset, offset + length); else why not.
   */
  static String checkUse(MemoryRegion region, PeerImpl peer, MemoryUsage usage, long offset,
      long length) {
    if (!(region instanceof MemoryRegionImpl r)) {
      return region == null ? "the local region is null" : "not a region of vertx-rpma";
    }
    if (r.peer != peer) {
      return "the local region was registered with another peer (protection domain)";
    }
    return r.check(usage, offset, length);
  }

  /** Null if the region allows {@code usage} over [offset, offset + length); else why not. */
  String check(MemoryUsage usage, long offset, long length) {
    if ((usageBits & (1 << usage.ordinal())) == 0) {
      return "the local region was not registered for " + usage + " (it has " + usages + ")";
    }
    return Ranges.check("local region", offset, length, size());
  }
}
