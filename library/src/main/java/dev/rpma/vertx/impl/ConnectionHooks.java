package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.impl.engine.CloseReason;
import dev.rpma.vertx.impl.engine.ConnectionEndedException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.internal.ContextInternal;

/**
 * What layers built on a connection (the message channel) need to know about it beyond the
 * API: when it has ended however it ended (onEnded only hears the ends it did not cause);
 * a request's peer and the context its Futures complete on.
 */
public final class ConnectionHooks {

  private ConnectionHooks() {
  }

  /**
   * Completes when librpma has released the connection, whoever closed it (its user, its
   * owner, the peer, a failure).
   */
  public static Future<Void> whenClosed(RpmaConnection connection) {
    return ((ConnectionImpl) connection).whenClosed();
  }

  /**
   * Calls {@code handler} on the connection's loop with why it ended, when it ends other than
   * by its close(): a layer's own slot, which the user's handlers set on the same connection
   * do not displace.
   */
  public static void onEnded(RpmaConnection connection, Handler<Throwable> handler) {
    ((ConnectionImpl) connection).layerEndHandler(handler);
  }

  /**
   * Whether {@code reason} (from {@link #onEnded}) is the peer's orderly
   * disconnect, an end and not an error: read from its type, never from its text.
   */
  public static boolean closedByPeer(Throwable reason) {
    return ConnectionEndedException.of(reason) == CloseReason.CLOSED_BY_PEER;
  }

  /** The peer (protection domain) whose server took {@code request}. */
  public static RpmaPeer peerOf(RpmaConnectionRequest request) {
    return ((ConnectionRequestImpl) request).server().peer();
  }

  /** The context {@code request}'s Futures (its receives', its accept's) complete on. */
  public static ContextInternal contextOf(RpmaConnectionRequest request) {
    return ((ConnectionRequestImpl) request).server().userContext();
  }
}
