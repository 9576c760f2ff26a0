package dev.rpma.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * The first librpma error of a fresh JVM (the log callback into Java runs before the caller
 * reads errno): opens a peer on an address no RDMA device serves and prints the errno the
 * exception carries, as {@code ERRNO <n> <message>}.
 */
public final class FirstErrorMain {

  private FirstErrorMain() {
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    RpmaPeer.open(vertx, args[0]).onComplete(ar -> {
      if (ar.succeeded()) {
        System.out.println("ERRNO none: a device serves " + args[0]);
      } else if (ar.cause() instanceof RpmaException e) {
        System.out.println("ERRNO " + e.errno() + " " + e.getMessage());
      } else {
        System.out.println("ERRNO none: " + ar.cause());
      }
      vertx.close().onComplete(v -> System.exit(0));
    });
  }
}
