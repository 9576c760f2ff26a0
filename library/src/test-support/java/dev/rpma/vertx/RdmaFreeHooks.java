package dev.rpma.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/** Test hooks that touch librpma without needing a device. */
public final class RdmaFreeHooks {

  private RdmaFreeHooks() {
  }

  /** Opens a peer for an address no device serves, and waits for the (expected) failure. */
  public static void tryOpenWithoutDevice(String address) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    try {
      Await.awaitFailure(RpmaPeer.open(vertx, address));
    } finally {
      Await.await(vertx.close());
    }
  }
}
