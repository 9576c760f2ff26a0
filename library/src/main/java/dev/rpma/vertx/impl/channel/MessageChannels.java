package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MessageChannelOptions;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;

/** Sets up message channels: the client's connect and the server's accept. */
public final class MessageChannels {

  private MessageChannels() {
  }

  public static Future<RpmaMessageChannel> connect(RpmaPeer peer, String address, int port,
      ConnectionOptions connectionOptions, MessageChannelOptions options) {
    return Future.failedFuture(new UnsupportedOperationException("not yet"));
  }

  public static Future<RpmaMessageChannel> accept(RpmaConnectionRequest request,
      MessageChannelOptions options) {
    return Future.failedFuture(new UnsupportedOperationException("not yet"));
  }

  public static boolean isChannelRequest(RpmaConnectionRequest request) {
    return false;
  }
}
