package dev.rpma.vertx.impl.cluster;

import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaServer;
import dev.rpma.vertx.impl.ConnectionHooks;
import dev.rpma.vertx.impl.DirectoryHooks;
import io.vertx.core.Future;

/**
 * What the directory needs of the library's servers and connections beyond the API
 * ({@link #LIBRARY}: {@code DirectoryHooks}, {@code ConnectionHooks}); an interface so its logic
 * is testable with servers and connections of a test's own.
 */
interface Links {

  /** Completes when the server begins to close. */
  Future<Void> whenClosing(RpmaServer server);

  /** Ends the connection at once as a fault with {@code why}. */
  void peerGone(RpmaConnection connection, String why);

  /** Completes when the connection has ended, however. */
  Future<Void> whenClosed(RpmaConnection connection);

  /** Null if a client may connect to {@code host}; else what is wrong with it. */
  String checkHost(String what, String host);

  Links LIBRARY = new Links() {
    @Override
    public Future<Void> whenClosing(RpmaServer server) {
      return DirectoryHooks.whenClosing(server);
    }

    @Override
    public void peerGone(RpmaConnection connection, String why) {
      DirectoryHooks.peerGone(connection, why);
    }

    @Override
    public Future<Void> whenClosed(RpmaConnection connection) {
      return ConnectionHooks.whenClosed(connection);
    }

    @Override
    public String checkHost(String what, String host) {
      return DirectoryHooks.checkHost(what, host);
    }
  };
}
