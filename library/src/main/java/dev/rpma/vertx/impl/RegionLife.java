package dev.rpma.vertx.impl;

import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;

/**
 * A registered region's native side, apart from the facade users hold
 * ({@link MemoryRegionImpl}): the peer owns this (and closes it when it closes) while only the
 * facade's users and operations hold the facade, so that a facade nobody holds any more can be
 * found unreachable ({@link ForgottenRegions}) and this closed (unless its descriptor was
 * handed out: {@link #forgotten}). Operations hold it
 * ({@link RefCounted}) from their call to their completion; it is deregistered once, after
 * close, when the last one is done.
 */
final class RegionLife implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(RegionLife.class);
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
  /**
   * Its descriptor was handed out (to be offered to peers): from then on peers may read and
   * write it with no reference to it in this JVM, so the safety net no longer deregisters it.
   */
  private volatile boolean handedOut;

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

  /** Its descriptor left the facade: peers may use it from now on. */
  void handedOut() {
    handedOut = true;
  }

  /**
   * Its facade became unreachable without a close ({@link ForgottenRegions}): closed, unless
   * its descriptor was handed out. A peer holding that descriptor may still read or write it,
   * and deregistering under it would fail the peer's operations with "remote access error":
   * the bench's server, which kept only its offer's bytes, lost its region so. Then it stays
   * until its peer closes, and the log says so.
   */
  void forgotten() {
    if (!handedOut) {
      close();
    } else if (!isClosed()) {
      LOG.warn("a registered region (" + memory.size() + " bytes) whose descriptor was handed"
          + " out became unreachable without close(): it stays registered until its peer"
          + " closes, since peers may still use it; hold the MemoryRegion and close() it when"
          + " they are done");
    }
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
