package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.impl.jni.JniCmIds;
import dev.rpma.vertx.impl.jni.JniPeer;
import dev.rpma.vertx.impl.jni.RpmaLog;
import dev.rpma.vertx.impl.loop.LoopContexts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.Objects;

/**
 * How a peer comes to be: the arguments and the transport checked on the caller's thread, then
 * on a worker the library's classes loaded, the device found for the address, its limits read
 * and librpma's peer made; the new peer owned by the caller's context.
 */
final class PeerOpening {

  private PeerOpening() {
  }

  static Future<RpmaPeer> open(Vertx vertx, String address) {
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
      LoopContexts.requireNativeTransport(vertx);
      JniPeer.ensureLoaded();
    } catch (RuntimeException | LinkageError e) {
      return ctx.failedFuture(e);
    }
    return ctx.<RpmaPeer>executeBlocking(() -> {
      LibraryClasses.loadAll(); // while files can still be opened: later paths need no file
      long ibv;
      try {
        RpmaLog.takeLastError(); // what an earlier call on this worker left
        ibv = JniPeer.ibvContext(address);
      } catch (RpmaException e) {
        throw CauseHints.open(e, address);
      }
      DeviceLimits device = DeviceLimits.query(ibv,
          Objects.requireNonNullElse(JniPeer.deviceName(ibv), "unnamed device"));
      RegionCaps regionCaps = RegionCaps.query(ibv);
      long peer = JniPeer.create(ibv);
      return new PeerImpl(vx, address, device, regionCaps, peer, JniCmIds.deviceIndex(ibv));
    }, false).onSuccess(p -> ((PeerImpl) p).ownedBy(ctx.closeFuture()));
  }
}
