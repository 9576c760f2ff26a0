package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** A message channel's two ends in one JVM, each with its own peer, on the device's address. */
final class ChannelPair implements AutoCloseable {

  final RpmaPeer serverPeer;
  final RpmaPeer clientPeer;
  final RpmaServer server;
  final RpmaMessageChannel client;
  final RpmaMessageChannel serverSide;

  private ChannelPair(RpmaPeer serverPeer, RpmaPeer clientPeer, RpmaServer server,
      RpmaMessageChannel client, RpmaMessageChannel serverSide) {
    this.serverPeer = serverPeer;
    this.clientPeer = clientPeer;
    this.server = server;
    this.client = client;
    this.serverSide = serverSide;
  }

  static ChannelPair open(Vertx vertx, MessageChannelOptions serverOptions,
      MessageChannelOptions clientOptions) {
    return open(vertx, serverOptions, clientOptions, null);
  }

  /** As above, the client's channel connected from {@code clientContext} (null: this thread). */
  static ChannelPair open(Vertx vertx, MessageChannelOptions serverOptions,
      MessageChannelOptions clientOptions, Context clientContext) {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer serverPeer = await(TestProvider.open(vertx, ip));
    RpmaPeer clientPeer = await(TestProvider.open(vertx, ip));
    Promise<RpmaMessageChannel> accepted = Promise.promise();
    int port = RdmaTestSupport.nextPort();
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(),
        req -> RpmaMessageChannel.accept(req, serverOptions).onComplete(accepted)));
    Supplier<Future<RpmaMessageChannel>> connect = () -> RpmaMessageChannel.connect(clientPeer,
        port, ip, new ConnectionOptions(), clientOptions);
    Promise<RpmaMessageChannel> connected = Promise.promise();
    if (clientContext == null) {
      connect.get().onComplete(connected);
    } else {
      clientContext.runOnContext(v -> connect.get().onComplete(connected));
    }
    RpmaMessageChannel client = await(connected.future());
    RpmaMessageChannel serverSide = await(accepted.future());
    return new ChannelPair(serverPeer, clientPeer, server, client, serverSide);
  }

  /** Runs {@code action} on the channel's context and waits for its value. */
  static <T> T on(RpmaMessageChannel channel, Supplier<T> action) {
    Promise<T> value = Promise.promise();
    channel.context().runOnContext(v -> value.complete(action.get()));
    return await(value.future());
  }

  static MessageChannelStats stats(RpmaMessageChannel channel) {
    return on(channel, channel::stats);
  }

  /**
   * The device's receiver-not-ready counters (rxe: rcvd_rnr_err, send_rnr_err; any hw counter
   * named *rnr*), summed; -1 if the device has none.
   */
  static long rnrCount(RpmaPeer peer) {
    Path counters = Path.of("/sys/class/infiniband", peer.deviceName(), "ports/1/hw_counters");
    if (!Files.isDirectory(counters)) {
      return -1;
    }
    try (Stream<Path> files = Files.list(counters)) {
      return files.filter(f -> f.getFileName().toString().contains("rnr"))
          .mapToLong(f -> {
            try {
              return Long.parseLong(Files.readString(f).trim());
            } catch (Exception e) {
              throw new AssertionError("cannot read " + f, e);
            }
          }).sum();
    } catch (java.io.IOException e) {
      throw new AssertionError("cannot list " + counters, e);
    }
  }

  @Override
  public void close() {
    await(Future.join(client.close(), serverSide.close()));
    await(server.close());
    await(clientPeer.close());
    await(serverPeer.close());
  }
}
