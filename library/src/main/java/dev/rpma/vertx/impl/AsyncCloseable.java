package dev.rpma.vertx.impl;

import io.vertx.core.Future;

/** Something a peer made and closes when it closes. */
interface AsyncCloseable {

  Future<Void> close();
}
