package dev.rpma.vertx.impl;

import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The safety net for regions (local and remote) a user never closes: what a
 * {@link java.lang.ref.Cleaner} does, without its thread. A Cleaner starts a thread and the
 * library starts none (the device suite's ThreadsTest holds it to that), so the references
 * the garbage collector finds unreachable are collected on the threads of the library's own
 * calls instead: each region registered and each remote region made first frees those
 * forgotten since.
 *
 * <p>Each open region's facade is tracked by a phantom reference whose action never refers to
 * the facade (else it would never become unreachable), only to what frees the native object;
 * that free is the region's idempotent close ({@link RefCounted#close()}), so a region closed
 * by its user is never freed twice; and its user's close drops the reference, so it is never
 * even queued.
 */
public final class ForgottenRegions {

  private static final Logger LOG = LoggerFactory.getLogger(ForgottenRegions.class);
  private static final ReferenceQueue<Object> UNREACHABLE = new ReferenceQueue<>();
  /** The references themselves must stay reachable until the collector queues them. */
  private static final Set<Tracked> TRACKED = ConcurrentHashMap.newKeySet();

  private ForgottenRegions() {
  }

  /**
   * Tracks {@code facade}: once unreachable, {@code free} runs on a later caller's thread.
   * {@code free} must not refer to {@code facade}, and must do nothing if the region was closed.
   */
  public static Tracked track(Object facade, Runnable free) {
    Tracked tracked = new Tracked(facade, free);
    TRACKED.add(tracked);
    return tracked;
  }

  /**
   * Frees the regions found unreachable since the last call; the library calls it before it
   * makes a region. Never throws: a failed free is logged, the caller's own call goes on.
   *
   * @return how many were freed
   */
  public static int collect() {
    int freed = 0;
    for (Object ref; (ref = UNREACHABLE.poll()) != null; ) {
      Tracked tracked = (Tracked) ref;
      if (TRACKED.remove(tracked)) {
        freed++;
        try {
          tracked.free.run();
        } catch (RuntimeException e) {
          LOG.warn("freeing a region nobody closed failed", e);
        }
      }
    }
    return freed;
  }

  /** A facade's reference; {@link #closed()} when its user closes it. */
  public static final class Tracked extends PhantomReference<Object> {

    private final Runnable free;

    private Tracked(Object facade, Runnable free) {
      super(facade, UNREACHABLE);
      this.free = free;
    }

    /** Its user closed it: no longer tracked, never queued. */
    public void closed() {
      if (TRACKED.remove(this)) {
        clear();
      }
    }
  }
}
