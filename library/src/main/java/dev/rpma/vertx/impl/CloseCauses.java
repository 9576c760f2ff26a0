package dev.rpma.vertx.impl;

import io.vertx.core.internal.ContextInternal;

/**
 * Who closes a connection when one of its owners does, for the reason its operations and its
 * close handler read: the outermost owner that is closing (vertx.close() undeploys verticles,
 * an undeploy closes the peers its verticle opened, a peer closes what it made), so the cause
 * a user acted on is named, not the step that followed from it.
 */
final class CloseCauses {

  private CloseCauses() {
  }

  static String ownersClose(PeerImpl peer, ContextInternal context) {
    if (peer.vertx().closeFuture().isClosed()) {
      return "by vertx.close()";
    }
    if (context.isDeployment() && context.closeFuture().isClosed()) {
      return "by the undeploy of the verticle that made it";
    }
    if (peer.isClosing()) {
      return "by its peer's close (RpmaPeer.close())";
    }
    return "by its owner's close";
  }
}
