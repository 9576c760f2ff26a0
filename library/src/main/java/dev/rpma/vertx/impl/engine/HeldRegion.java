package dev.rpma.vertx.impl.engine;

/**
 * A region an operation holds: a local one from the call until its completion (the device may
 * read or write it until then), a remote one until its post (the work request carries its
 * address and key from then on). Releasing the last hold of a closed region deregisters it.
 */
public interface HeldRegion {

  /** librpma's handle (rpma_mr_local or rpma_mr_remote). */
  long handle();

  void release();

  /** Releases the holds given (null: none). */
  static void release(HeldRegion local, HeldRegion remote) {
    if (local != null) {
      local.release();
    }
    if (remote != null) {
      remote.release();
    }
  }
}
