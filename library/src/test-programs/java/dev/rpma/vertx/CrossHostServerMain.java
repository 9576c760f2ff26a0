package dev.rpma.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.ByteBuffer;

/**
 * The server side of the cross-host suite, on host 0 (scripts/testbed/cross-host.sh): serves
 * one region of 1 MiB to every client (its offer in the accept's private data) and posts a
 * receive on each connection: a message whose first byte is {@code H} makes the process halt at
 * once, as {@code kill -9} would (the kernel then tears its connections down). Prints
 * LISTENING when ready; runs until halted or killed.
 */
public final class CrossHostServerMain {

  static final int REGION_SIZE = 1 << 20;
  static final byte HALT = 'H';

  private CrossHostServerMain() {
  }

  public static void main(String[] args) {
    String ip = args[0];
    int port = Integer.parseInt(args[1]);
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    RpmaPeer.open(vertx, ip)
        .compose(peer -> peer.register(ByteBuffer.allocateDirect(REGION_SIZE),
            MemoryUsage.READ_SRC, MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_PERSISTENT,
                MemoryUsage.RECV)
            .compose(region -> peer.listen(port, ip, new ConnectionOptions(), req -> {
              // the last 64 bytes take commands; the rest is the clients' to write and read
              long commands = REGION_SIZE - 64;
              req.recv(region, commands, 64).onSuccess(received -> {
                if (region.buffer().get((int) commands) == HALT) {
                  Runtime.getRuntime().halt(9);
                }
              });
              req.accept(RegionOffer.of(PeerConfig.create(true), region).toBytes());
            })))
        .onSuccess(server -> System.out.println("LISTENING"))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(2);
        });
  }
}
