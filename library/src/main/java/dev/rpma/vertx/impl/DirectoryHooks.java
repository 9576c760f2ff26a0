package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;

/**
 * What the cluster's directory ({@code impl.cluster}) needs of a server and a connection beyond
 * the API: when a server begins to close (its publication withdrawn then, however it closes),
 * how a connection ends on the cluster's word, and the address check a connect makes.
 */
public final class DirectoryHooks {

  private DirectoryHooks() {
  }

  /**
   * Completes when {@code server} begins to close: its user's close, its peer's, an undeploy, or
   * a fault of its listener.
   *
   * @throws IllegalArgumentException if {@code server} is not one this library made
   */
  public static Future<Void> whenClosing(RpmaServer server) {
    if (!(server instanceof ServerImpl s)) {
      throw new IllegalArgumentException("server: not an RpmaServer of vertx-rpma's"
          + " (RpmaPeer.listen makes them): " + server);
    }
    return s.whenClosing();
  }

  /**
   * Ends {@code connection} at once, as a fault with {@code why} (its close and exception
   * handlers hear it, its operations fail with it), unless it has ended already.
   */
  public static void peerGone(RpmaConnection connection, String why) {
    ((ConnectionImpl) connection).peerGone(why);
  }

  /** Null if {@code host} may be given to a connect; else what is wrong with it. */
  public static String checkHost(String what, String host) {
    return AddressCheck.check(what, host);
  }
}
