package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Vert.x on Netty's io_uring loop instead of epoll: the library watches its completion and
 * connection fds on whichever native loop runs the context (the io_uring jars come with
 * vertx-rpma). Only the Vert.x instance differs:
 * {@code Vertx.builder().with(options).withTransport(Transport.IO_URING).build()}.
 * {@code ./dev example io-uring}.
 */
public final class IoUringExample implements FeatureExample {

  private static final String TEXT = "written and read back on the io_uring loop";

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new IoUringExample()));
  }

  @Override
  public String name() {
    return "io-uring";
  }

  @Override
  public int defaultPort() {
    return 7316;
  }

  @Override
  public String run(String address, int port) {
    Vertx vertx = NativeVertx.create(NativeVertx.options(), Transport.IO_URING);
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));
      ServerAndClient pair = ServerAndClient.open(peer, address, port, 128,
          new ConnectionOptions());
      byte[] text = TEXT.getBytes(StandardCharsets.US_ASCII);
      pair.local().buffer().put(0, text);
      await(pair.client().write(pair.remote(), 0, pair.local(), 0, text.length));
      await(pair.client().read(pair.local(), 64, pair.remote(), 0, text.length));
      String readBack = StandardCharsets.US_ASCII.decode(
          pair.local().buffer().slice(64, text.length)).toString();
      FeatureExample.check(readBack.equals(TEXT), "read back '" + readBack + "'");
      long wakeups = pair.client().stats().wakeups();
      FeatureExample.check(wakeups > 0, "the io_uring loop never woke for a completion");

      await(peer.close());
      return "transport    " + Transport.IO_URING.name() + " (native: "
          + vertx.isNativeTransportEnabled() + ")\n"
          + "write, read  '" + readBack + "'; the loop woke " + wakeups
          + " times for completions\n";
    } finally {
      await(vertx.close());
    }
  }
}
