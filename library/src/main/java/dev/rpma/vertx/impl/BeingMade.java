package dev.rpma.vertx.impl;

import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.CloseFuture;

/**
 * Something a peer is making (a shared receive queue, a client's queue pair: librpma makes it
 * on a worker) that the peer does not own yet: a placeholder on the peer's ownership node, so
 * that the peer's close waits for it. What is made after the close began is refused ownership
 * and deletes itself; the peer's own delete comes only after that (else rpma_peer_delete fails
 * with EBUSY, the protection domain leaked). A server's accept is waited for by its server's
 * engine, where the request stays open until the accept settled (ServerEngine.close).
 */
final class BeingMade implements Closeable {

  private final CloseFuture node;
  private final Promise<Void> settled = Promise.promise();

  private BeingMade(CloseFuture node) {
    this.node = node;
  }

  /** A placeholder on {@code node}; null if the node is closing (the peer is closed). */
  static BeingMade on(CloseFuture node) {
    BeingMade making = new BeingMade(node);
    return node.add(making) ? making : null;
  }

  /** {@code made}, after which the placeholder is gone (and a closing peer goes on). */
  <T> Future<T> until(Future<T> made) {
    return made.onComplete(ar -> {
      node.remove(this);
      settled.tryComplete();
    });
  }

  /** The peer closes: it waits until the thing is made and owned, or deleted. */
  @Override
  public void close(Completable<Void> completion) {
    settled.future().onComplete(ar -> completion.succeed());
  }
}
