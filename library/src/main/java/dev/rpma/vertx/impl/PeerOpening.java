package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;

/**
 * How a peer comes to be: the arguments and the transport checked on the caller's thread, then
 * on a worker the library's classes loaded, the device found for the address, its limits read
 * and librpma's peer made (by the {@link RpmaProvider}: librpma unless the test kit opens it);
 * the new peer owned by the caller's context.
 */
final class PeerOpening {

  private PeerOpening() {
  }

  static Future<RpmaPeer> open(Vertx vertx, String address, RpmaProvider provider) {
    if (vertx == null) {
      return Future.failedFuture(new IllegalArgumentException("vertx must not be null: give"
          + " the Vertx instance, on a native transport"));
    }
    VertxInternal vx = (VertxInternal) vertx;
    ContextInternal ctx = vx.getOrCreateContext();
    String invalid = AddressCheck.check("address", address);
    if (invalid != null) {
      return ctx.failedFuture(new IllegalArgumentException(invalid));
    }
    try {
      provider.checkUsable(vertx);
    } catch (RuntimeException | LinkageError e) {
      return ctx.failedFuture(e);
    }
    return ctx.<RpmaPeer>executeBlocking(
        () -> new PeerImpl(vx, address, provider, provider.openPeer(address)), false)
        .onSuccess(p -> ((PeerImpl) p).ownedBy(ctx.closeFuture()));
  }
}
