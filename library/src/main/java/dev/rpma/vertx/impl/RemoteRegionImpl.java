package dev.rpma.vertx.impl;

import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.impl.engine.HeldRegion;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.util.Objects;

/**
 * A peer's region, decoded by librpma from its descriptor. Held only while an operation is
 * being posted (the device copies address and key into the work request), so closing it never
 * waits for completions. One nobody closed is freed after it becomes unreachable
 * ({@link ForgottenRegions}).
 */
public final class RemoteRegionImpl implements RemoteMemoryRegion, HeldRegion {

  private final long handle;
  private final long size;
  private final boolean persistentFlush;
  private final boolean visibilityFlush;
  private final Promise<Void> freed;
  private final RefCounted life;
  private final ForgottenRegions.Tracked tracked;

  private RemoteRegionImpl(RemoteDescriptors.Decoded region) {
    this.handle = region.handle();
    this.size = region.size();
    this.persistentFlush = region.persistentFlush();
    this.visibilityFlush = region.visibilityFlush();
    this.freed = Promise.promise();
    this.life = new RefCounted(deleteThenComplete(region, freed));
    this.tracked = ForgottenRegions.track(this, life::close);
  }

  /** The free, made apart from the facade so that it does not hold the facade. */
  private static Runnable deleteThenComplete(RemoteDescriptors.Decoded region,
      Promise<Void> freed) {
    return () -> {
      region.delete().run();
      freed.complete();
    };
  }

  public static RemoteMemoryRegion fromDescriptor(byte[] descriptor) {
    Objects.requireNonNull(descriptor, "descriptor");
    ForgottenRegions.collect();
    return new RemoteRegionImpl(RemoteDescriptors.decode(descriptor));
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public boolean supportsPersistentFlush() {
    return persistentFlush;
  }

  @Override
  public boolean supportsVisibilityFlush() {
    return visibilityFlush;
  }

  @Override
  public Future<Void> close() {
    tracked.closed();
    life.close();
    Context caller = Vertx.currentContext();
    if (caller == null) {
      return freed.future();
    }
    Promise<Void> onCaller = ((ContextInternal) caller).promise();
    freed.future().onComplete(onCaller);
    return onCaller.future();
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
