package dev.rpma.examples;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MessageChannelOptions;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.logging.Logger;

/**
 * The ping-pong server: writes every message it receives back to its one client, over a
 * message channel. The channel posts its receives before accepting and only lets the client
 * send what it has posted receives for, so nothing here posts a receive or counts credit; a
 * slow writer pauses the reader (the usual Vert.x back-pressure), which stops the client.
 */
public final class EchoServerVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(EchoServerVerticle.class.getName());

  private final PingPongSettings settings;
  private RpmaPeer peer;
  private RpmaServer server;
  private RpmaMessageChannel client;

  public EchoServerVerticle(PingPongSettings settings) {
    this.settings = settings;
  }

  /** Both sides: receives complete on their own CQ, which holds every receive of the channel. */
  static ConnectionOptions connectionOptions(PingPongSettings settings) {
    return new ConnectionOptions().setRcqSize(settings.rcqSize());
  }

  /** Both sides: a receive for each entry of the receive CQ, buffers of the message size. */
  static MessageChannelOptions channelOptions(PingPongSettings settings) {
    return new MessageChannelOptions().setReceiveBuffers(settings.rcqSize())
        .setReceiveBufferSize(settings.messageSize()).setSendBuffers(4);
  }

  @Override
  public Future<?> start() {
    return RpmaPeer.open(vertx, settings.address())
        .compose(opened -> {
          peer = opened;
          return peer.listen(settings.port(), settings.address(), connectionOptions(settings),
              this::onRequest);
        })
        .onSuccess(listening -> server = listening);
  }

  private void onRequest(RpmaConnectionRequest request) {
    if (client != null) {
      request.reject();
      return;
    }
    RpmaMessageChannel.accept(request, channelOptions(settings))
        .onSuccess(this::echo)
        .onFailure(e -> LOG.warning("accepting the client failed: " + Steps.describe(e)));
  }

  private void echo(RpmaMessageChannel channel) {
    client = channel;
    channel.exceptionHandler(e -> LOG.warning("the channel failed: " + Steps.describe(e)));
    channel.handler(ping -> {
      channel.write(ping);
      if (channel.writeQueueFull()) {
        channel.pause();
        channel.drainHandler(v -> channel.resume());
      }
    });
  }

  @Override
  public Future<?> stop() {
    Future<Void> stopped = server == null ? Future.succeededFuture() : server.close();
    return stopped.eventually(() -> peer == null ? Future.succeededFuture() : peer.close());
  }
}
