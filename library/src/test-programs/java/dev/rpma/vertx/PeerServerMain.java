package dev.rpma.vertx;

import io.vertx.core.Vertx;
import java.nio.ByteBuffer;

/**
 * A server in its own JVM for the two-process test: serves one region (its descriptor in the
 * accept's private data), prints LISTENING when ready, and exits 0 when its client disconnects.
 */
public final class PeerServerMain {

  private PeerServerMain() {
  }

  public static void main(String[] args) {
    String ip = args[0];
    int port = Integer.parseInt(args[1]);
    Vertx vertx = RdmaTestSupport.nativeVertx(); // the parent's transport
    RpmaPeer.open(vertx, ip)
        .compose(peer -> peer.register(ByteBuffer.allocateDirect(64 * 1024),
            MemoryUsage.READ_SRC, MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_PERSISTENT)
            .compose(region -> peer.listen(port, ip, new ConnectionOptions(),
                req -> req.accept(
                    RegionOffer.of(PeerConfig.create(true), region).toBytes()).onSuccess(conn -> conn.closeHandler(
                    why -> vertx.close().onComplete(v -> System.exit(0)))))))
        .onSuccess(server -> System.out.println("LISTENING"))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(2);
        });
  }
}
