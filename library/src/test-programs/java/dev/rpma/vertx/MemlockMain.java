package dev.rpma.vertx;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;

/**
 * Registers 16 MiB of a direct buffer, then (with a second argument) that file's first 16 MiB,
 * mapped by the library, in a JVM that MemlockTest starts unprivileged under a small
 * locked-memory limit; prints one line for each, {@code BUFFER|FILE REGISTERED} or
 * {@code BUFFER|FILE REGISTER-FAILED <message>}, then exits. One JVM for both: under the
 * emulator a child JVM costs half a minute to start.
 */
public final class MemlockMain {

  private MemlockMain() {
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    RpmaPeer.open(vertx, args[0])
        .compose(peer -> report("BUFFER",
                peer.register(ByteBuffer.allocateDirect(16 << 20), Set.of(MemoryUsage.WRITE_DST)))
            .compose(v -> args.length > 1
                ? report("FILE",
                    peer.register(Path.of(args[1]), 0, 16 << 20, Set.of(MemoryUsage.WRITE_DST)))
                : Future.succeededFuture()))
        .onComplete(ar -> {
          if (ar.failed()) {
            System.out.println("PEER-FAILED " + ar.cause().getMessage());
          }
          vertx.close().onComplete(v -> System.exit(0));
        });
  }

  /** Prints what became of one registration; completes either way. */
  private static Future<Void> report(String what, Future<MemoryRegion> registration) {
    return registration.transform(ar -> {
      System.out.println(what + (ar.succeeded() ? " REGISTERED"
          : " REGISTER-FAILED " + ar.cause().getMessage()));
      return Future.succeededFuture();
    });
  }
}
