package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.engine.CloseReason;
import dev.rpma.vertx.impl.engine.ConnectionEndedException;
import io.vertx.core.Handler;
import io.vertx.core.internal.ContextInternal;

/**
 * A connection's handlers of its end, shaped like a {@code NetSocket}'s: the exception handler
 * (a fault ended it), the end handler (it ended, however), and the deprecated close handler
 * (it ended other than by close(), with the reason). Fed on the owning loop by its engine;
 * delivered on the user's context. Each is read when its event comes, so setting one late
 * still counts until then.
 */
final class ConnectionHandlers {

  private final ContextInternal context;
  private final ContextInternal userContext;
  private volatile Handler<Throwable> exceptionHandler;
  private volatile Handler<Void> endHandler;
  private volatile Handler<Throwable> closeHandler;
  /** A layer built on the connection (the message channel): apart, so a user's handler set on
   *  the channel's {@code connection()} cannot displace it. */
  private volatile Handler<Throwable> layerEndHandler;

  ConnectionHandlers(ContextInternal context, ContextInternal userContext) {
    this.context = context;
    this.userContext = userContext;
  }

  void exceptionHandler(Handler<Throwable> handler) {
    this.exceptionHandler = handler;
  }

  void endHandler(Handler<Void> handler) {
    this.endHandler = handler;
  }

  void closeHandler(Handler<Throwable> handler) {
    this.closeHandler = handler;
  }

  void layerEndHandler(Handler<Throwable> handler) {
    this.layerEndHandler = handler;
  }

  /**
   * The engine's word that the connection ended other than by close(), on the loop: the close
   * handler has the reason; the exception handler too, unless the peer disconnected in order
   * (a {@code NetSocket}'s peer closing is no exception either).
   */
  void ended(Throwable why) {
    Handler<Throwable> layer = layerEndHandler;
    if (layer != null) {
      layer.handle(why);
    }
    onUser(() -> {
      Handler<Throwable> close = closeHandler;
      if (close != null) {
        close.handle(why);
      }
      Handler<Throwable> exception = exceptionHandler;
      if (exception != null && ConnectionEndedException.of(why) != CloseReason.CLOSED_BY_PEER) {
        exception.handle(why);
      }
    });
  }

  /** librpma has released the connection, however it ended: the end handler, on the loop. */
  void released() {
    onUser(() -> {
      Handler<Void> end = endHandler;
      if (end != null) {
        end.handle(null);
      }
    });
  }

  private void onUser(Runnable call) {
    if (userContext == context) {
      call.run();
    } else {
      userContext.runOnContext(v -> call.run());
    }
  }
}
