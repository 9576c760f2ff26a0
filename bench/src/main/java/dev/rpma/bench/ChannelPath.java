package dev.rpma.bench;

import dev.rpma.vertx.RpmaMessageChannel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;

/**
 * The message channel under test: its public API only. The server side writes back every
 * message whose first byte is {@link HandPostedPair#ECHO} (pausing while its write queue is
 * full), and drops the others.
 */
final class ChannelPath implements MessagePath {

  private final RpmaMessageChannel client;
  private final RpmaMessageChannel server;
  private final Buffer echo;
  private final Buffer drop;
  private Promise<Void> pong;

  ChannelPath(RpmaMessageChannel client, RpmaMessageChannel server, int size) {
    this.client = client;
    this.server = server;
    this.echo = Buffer.buffer(new byte[size]).setByte(0, HandPostedPair.ECHO);
    this.drop = Buffer.buffer(new byte[size]).setByte(0, HandPostedPair.DROP);
  }

  /** Sets the handlers of both ends; call once, from any thread. */
  void start() {
    client.handler(b -> {
      Promise<Void> p = pong;
      pong = null;
      if (p != null) {
        p.complete();
      }
    });
    server.handler(b -> {
      if (b.getByte(0) == HandPostedPair.ECHO) {
        server.write(b);
        if (server.writeQueueFull()) {
          server.pause();
          server.drainHandler(v -> server.resume());
        }
      }
    });
  }

  @Override
  public String name() {
    return "channel";
  }

  @Override
  public Context context() {
    return client.context();
  }

  @Override
  public Future<Void> roundTrip() {
    Promise<Void> p = Promise.promise();
    pong = p;
    client.write(echo).onFailure(p::tryFail);
    return p.future();
  }

  @Override
  public Future<Void> oneWay() {
    return client.write(drop);
  }

  @Override
  public Future<Void> close() {
    return Future.join(client.close(), server.close()).mapEmpty();
  }
}
