package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.engine.HeldRegion;
import dev.rpma.vertx.impl.jni.JniRemoteRegion;
import dev.rpma.vertx.impl.jni.NativeConstants;

import dev.rpma.vertx.RemoteMemoryRegion;
import java.util.Objects;

/**
 * A peer's region, decoded by librpma from its descriptor. Held only while an operation is
 * being posted (the device copies address and key into the work request), so closing it never
 * waits for completions.
 */
public final class RemoteRegionImpl implements RemoteMemoryRegion, HeldRegion {


  private final long handle;
  private final long size;
  private final int flushType;
  private final RefCounted life;

  private RemoteRegionImpl(JniRemoteRegion region) {
    this.handle = region.handle();
    this.size = region.size();
    this.flushType = region.flushType();
    this.life = new RefCounted(region::delete);
  }

  public static RemoteMemoryRegion fromDescriptor(byte[] descriptor) {
    Objects.requireNonNull(descriptor, "descriptor");
    return new RemoteRegionImpl(JniRemoteRegion.fromDescriptor(descriptor));
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public boolean supportsPersistentFlush() {
    return (flushType & NativeConstants.usageFlag(MemoryUsage.FLUSH_PERSISTENT)) != 0;
  }

  @Override
  public boolean supportsVisibilityFlush() {
    return (flushType & NativeConstants.usageFlag(MemoryUsage.FLUSH_VISIBILITY)) != 0;
  }

  @Override
  public void close() {
    life.close();
  }

  @Override
  public long handle() {
    return handle;
  }

  boolean acquire() {
    return life.tryAcquire();
  }

  @Override
  public void release() {
    life.release();
  }

  /** Null if [offset, offset + length) lies in the region; else what is wrong. */
  String check(long offset, long length) {
    return Ranges.check("remote region", offset, length, size);
  }
}
