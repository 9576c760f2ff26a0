package dev.rpma.examples;

import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;

/** The ping-pong client: one ping at a time over a message channel, each checked against its pong. */
public final class PingClientVerticle extends VerticleBase {

  private final PingPongSettings settings;
  private final Promise<ClientReport> result = Promise.promise();
  private RpmaPeer peer;
  private RpmaMessageChannel channel;
  private Promise<Buffer> pong;

  public PingClientVerticle(PingPongSettings settings) {
    this.settings = settings;
  }

  /** Completes when every round trip is done and checked, or fails with the first bad one. */
  public Future<ClientReport> result() {
    return result.future();
  }

  @Override
  public Future<?> start() {
    return RpmaPeer.open(vertx, settings.address())
        .compose(opened -> {
          peer = opened;
          return RpmaMessageChannel.connect(peer, settings.port(), settings.address(),
              EchoServerVerticle.connectionOptions(settings),
              EchoServerVerticle.channelOptions(settings));
        })
        .onSuccess(connected -> {
          channel = connected;
          channel.handler(this::onPong);
          channel.endHandler(v -> result.tryFail("the server closed the channel"));
          WindowedRunner.run("round trip", settings.rounds(), 1, (round, lane) -> ping(round))
              .map(m -> new ClientReport(peer.deviceName(), m, channel.connection().stats()))
              .onComplete(result);
        });
  }

  private Future<Void> ping(long round) {
    Buffer ping = PingMessage.ping(round, settings.messageSize());
    pong = Promise.promise();
    Future<Buffer> answer = pong.future();
    return Future.all(channel.write(ping), answer).compose(v -> {
      String problem = PingMessage.checkEcho(ping, answer.result());
      return problem == null ? Future.succeededFuture()
          : Future.failedFuture(new IllegalStateException(problem));
    });
  }

  private void onPong(Buffer message) {
    if (pong == null || !pong.tryComplete(message)) {
      result.tryFail("a pong arrived that no ping asked for");
    }
  }

  @Override
  public Future<?> stop() {
    result.tryFail("the client was stopped before it finished");
    Future<Void> closed = channel == null ? Future.succeededFuture() : channel.close();
    return closed.eventually(() -> peer == null ? Future.succeededFuture() : peer.close());
  }
}
