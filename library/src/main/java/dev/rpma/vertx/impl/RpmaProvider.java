package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

/**
 * Where a peer's device comes from: the seam of the facades (the engine's seams are
 * {@code impl.seam}). {@link JniProvider} (librpma through JNI, on a native transport) is the
 * default and the one {@code RpmaPeer.open} uses; the test kit ({@code vertx-rpma-testkit})
 * gives its own, an in-JVM device, only to a peer a user opens through it, never by accident.
 */
public interface RpmaProvider {

  /**
   * What must hold before a peer opens, on the caller's thread (for librpma: a native
   * transport, the natives loaded); throws naming what is missing and the fix.
   */
  void checkUsable(Vertx vertx);

  /** The device serving {@code address} and a peer (protection domain) on it. On a worker. */
  ProviderPeer openPeer(String address);

  /**
   * The event-loop context a connection or server made on {@code current} lives on (its own
   * if it is one, else one on the same loop sharing its close future); throws if this provider
   * cannot watch that loop.
   */
  ContextInternal eventLoopContext(Vertx vertx, ContextInternal current);

  /** How the engine waits on the loop of {@code context}. */
  LoopIo loopIo(ContextInternal context);
}
