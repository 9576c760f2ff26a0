package dev.rpma.examples;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.nio.ByteBuffer;

/** The ping-pong client: one ping at a time, each checked against its pong. */
public final class PingClientVerticle extends VerticleBase {

  private final PingPongSettings settings;
  private final Promise<ClientReport> result = Promise.promise();
  private RpmaPeer peer;
  private MemoryRegion buffers;
  private RpmaConnection connection;

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
          // [0, size): the ping; [size, 2 size): where the pong arrives
          return peer.register(ByteBuffer.allocateDirect(2 * settings.messageSize()),
              MemoryUsage.SEND, MemoryUsage.RECV);
        })
        .compose(registered -> {
          buffers = registered;
          return peer.connect(settings.address(), settings.port(),
              EchoServerVerticle.connectionOptions(settings), null);
        })
        .onSuccess(connected -> {
          connection = connected;
          WindowedRunner.run("round trip", settings.rounds(), 1, (round, lane) -> ping(round))
              .map(m -> new ClientReport(peer.deviceName(), m, connection.stats()))
              .onComplete(result);
        });
  }

  private Future<Void> ping(long round) {
    int size = settings.messageSize();
    // The pong's receive goes first: the pong may be back before this method returns.
    Future<Received> pong = connection.recv(buffers, size, size);
    ByteBuffer bytes = buffers.buffer();
    PingMessage.fill(bytes, 0, round, size);
    Future<Void> sent = connection.send(buffers, 0, size);
    return Future.all(sent, pong).compose(v -> {
      String problem = PingMessage.checkEcho(bytes, 0, size, size, pong.result());
      return problem == null ? Future.succeededFuture()
          : Future.failedFuture(new IllegalStateException(problem));
    });
  }

  @Override
  public Future<?> stop() {
    result.tryFail("the client was stopped before it finished");
    Future<Void> closed = connection == null ? Future.succeededFuture() : connection.close();
    return closed.eventually(() -> peer == null ? Future.succeededFuture() : peer.close());
  }
}
