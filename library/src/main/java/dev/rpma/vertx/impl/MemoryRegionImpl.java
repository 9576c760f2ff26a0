package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.engine.HeldRegion;
import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A registered region as users hold it. Operations hold it (and so its buffer) from the call
 * until their completion; {@link #close()} deregisters once the last one is done. Its native
 * side is a {@link RegionLife}, which its peer owns; one nobody closed is closed after this
 * facade becomes unreachable ({@link ForgottenRegions}), unless its descriptor was handed out
 * (peers may still use it: it stays until its peer closes).
 */
public final class MemoryRegionImpl implements MemoryRegion, HeldRegion {

  private final PeerImpl peer;
  private final RegionLife life;
  private final ForgottenRegions.Tracked tracked;
  private final RegionMemory memory;
  private final long size;
  private final Set<MemoryUsage> usages;
  /** The usages as bits of their ordinals: the per-operation check is one AND. */
  private final int usageBits;
  private final byte[] descriptor;

  MemoryRegionImpl(PeerImpl peer, RegionLife life, RegionMemory memory, Set<MemoryUsage> usages,
      byte[] descriptor) {
    this.peer = peer;
    this.life = life;
    this.memory = memory;
    this.size = memory.size();
    this.usages = Collections.unmodifiableSet(EnumSet.copyOf(usages));
    int bits = 0;
    for (MemoryUsage u : usages) {
      bits |= 1 << u.ordinal();
    }
    this.usageBits = bits;
    this.descriptor = descriptor;
    this.tracked = ForgottenRegions.track(this, life::forgotten);
  }

  @Override
  public ByteBuffer buffer() {
    if (size > Integer.MAX_VALUE) {
      throw new IllegalStateException("the region has " + size + " bytes, more than a"
          + " ByteBuffer holds (2 GiB - 1): see it through window(offset, length)");
    }
    return memory.window(0, (int) size); // a buffer's stays usable after close, as before
  }

  /** The memory under it: the user's buffer or a mapping the library made. */
  RegionMemory memory() {
    return memory;
  }

  /** A direct buffer over part of the memory, for a region of any size. */
  @Override
  public ByteBuffer window(long offset, int length) {
    String bad = Ranges.check("region", offset, length, size);
    if (bad != null) {
      throw new IllegalArgumentException(bad);
    }
    if (life.isClosed()) {
      throw new IllegalStateException("the region is closed: take views of an open region");
    }
    return memory.window(offset, length);
  }

  @Override
  public boolean persistentMemory() {
    return memory.persistent();
  }

  /**
   * A Vert.x Buffer over [offset, offset + length) of the registered memory, no copy: Netty's
   * ByteBuf over a window of the memory, as Vert.x Buffers are made. Its capacity is
   * fixed (a wrapped buffer's max capacity is its size), so it can never be reallocated away
   * from the registered memory; it keeps that memory reachable as the ByteBuffer views do.
   */
  @Override
  public Buffer slice(long offset, int length) {
    return BufferInternal.buffer(Unpooled.wrappedBuffer(window(offset, length)));
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public Set<MemoryUsage> usages() {
    return usages;
  }

  @Override
  public byte[] descriptor() {
    life.handedOut(); // peers may use it now, with no reference to it here
    return descriptor.clone();
  }

  @Override
  public Future<Void> close() {
    tracked.closed();
    return life.close();
  }

  @Override
  public long handle() {
    return life.handle();
  }

  PeerImpl peer() {
    return peer;
  }

  boolean acquire() {
    return life.acquire();
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
