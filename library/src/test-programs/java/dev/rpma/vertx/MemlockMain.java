package dev.rpma.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;

/**
 * Registers 16 MiB (a direct buffer; with a second argument, that file's first 16 MiB, mapped
 * by the library), in a JVM that MemlockTest starts unprivileged under a small locked-memory
 * limit; prints {@code REGISTERED} or {@code REGISTER-FAILED <message>}, then exits.
 */
public final class MemlockMain {

  private MemlockMain() {
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    RpmaPeer.open(vertx, args[0])
        .compose(peer -> args.length > 1
            ? peer.register(Path.of(args[1]), 0, 16 << 20, Set.of(MemoryUsage.WRITE_DST))
            : peer.register(ByteBuffer.allocateDirect(16 << 20), Set.of(MemoryUsage.WRITE_DST)))
        .onComplete(ar -> {
          System.out.println(ar.succeeded() ? "REGISTERED"
              : "REGISTER-FAILED " + ar.cause().getMessage());
          vertx.close().onComplete(v -> System.exit(0));
        });
  }
}
