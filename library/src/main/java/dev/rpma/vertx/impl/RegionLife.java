package dev.rpma.vertx.impl;

import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;

/**
 * A registered region's native side, apart from the facade users hold
 * ({@link MemoryRegionImpl}): the peer owns this (and closes it when it closes) while only the
 * facade's users and operations hold the facade, so that a facade nobody holds any more can be
 * found unreachable ({@link ForgottenRegions}) and this closed. Operations hold it
 * ({@link RefCounted}) from their call to their completion; it is deregistered once, after
 * close, when the last one is done.
 */
final class RegionLife implements Closeable {

  private final PeerImpl peer;
  private final ContextInternal context;
  private final long handle;
  /**
   * The registered memory, reachable until deregistered even when nothing else holds it: the
   * device may write into it until then, so it must not be freed and reused before (a mapping
   * is unmapped after).
   */
  private final RegionMemory memory;
  private final RefCounted users;
  private final Promise<Void> deregistered;

  RegionLife(PeerImpl peer, ContextInternal context, long handle, RegionMemory memory) {
    this.peer = peer;
    this.context = context;
    this.handle = handle;
    this.memory = memory;
    this.deregistered = context.promise();
    this.users = new RefCounted(this::deregister);
  }

  /** Its peer is closing. */
  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }

  /** Deregisters once the operations holding it are done; idempotent. */
  Future<Void> close() {
    users.close();
    return deregistered.future();
  }

  private void deregister() {
    peer.blocking(context, () -> {
      RegionRegistration.deregister(peer, handle);
      memory.deregistered(); // a mapping is unmapped only once the device is done with it
      return null;
    })
        .onComplete(ar -> {
          peer.regions().owned().remove(this);
          deregistered.handle(ar.mapEmpty());
        });
  }

  boolean isClosed() {
    return users.isClosed();
  }

  long handle() {
    return handle;
  }

  boolean acquire() {
    return users.tryAcquire();
  }

  void release() {
    users.release();
  }
}
