package dev.rpma.examples;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.nio.ByteBuffer;
import java.util.logging.Logger;

/**
 * The ping-pong server: sends every message it receives back to its one client.
 *
 * <p>A send is only received if the peer has a receive posted. So the server posts the
 * receive for the next ping before it sends the pong for this one: the client sends its next
 * ping only after that pong, so the receive is always there first. The very first receive can
 * only be posted once the connection is established, which is also when the client may send:
 * librpma asks for unlimited RNR retries when it connects, so a ping that arrives first is
 * retried by the device until the receive is there, not lost.
 */
public final class EchoServerVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(EchoServerVerticle.class.getName());

  private final PingPongSettings settings;
  private RpmaPeer peer;
  private RpmaServer server;
  private MemoryRegion buffers;
  private RpmaConnection client;
  private boolean stopping;

  public EchoServerVerticle(PingPongSettings settings) {
    this.settings = settings;
  }

  /** Both sides: receives complete on their own CQ. */
  static ConnectionOptions connectionOptions(PingPongSettings settings) {
    return new ConnectionOptions().setRcqSize(settings.rcqSize());
  }

  @Override
  public Future<?> start() {
    return RpmaPeer.open(vertx, settings.address())
        .compose(opened -> {
          peer = opened;
          // [0, size): where pings arrive; [size, 2 size): what pongs are sent from
          return peer.register(ByteBuffer.allocateDirect(2 * settings.messageSize()),
              MemoryUsage.RECV, MemoryUsage.SEND);
        })
        .compose(registered -> {
          buffers = registered;
          return peer.listen(settings.address(), settings.port(), connectionOptions(settings),
              this::onRequest);
        })
        .onSuccess(listening -> server = listening);
  }

  private void onRequest(RpmaConnectionRequest request) {
    if (client != null) {
      request.reject();
      return;
    }
    request.accept(null)
        .onSuccess(conn -> {
          client = conn;
          echoNext();
        })
        .onFailure(e -> LOG.warning("accepting the client failed: " + Steps.describe(e)));
  }

  private void echoNext() {
    int size = settings.messageSize();
    client.recv(buffers, 0, size).onComplete(ar -> {
      if (ar.succeeded()) {
        echo(ar.result());
      } else if (!(stopping || ar.cause() instanceof RpmaConnectionClosedException)) {
        LOG.warning("receiving a ping failed: " + Steps.describe(ar.cause()));
      }
    });
  }

  private void echo(Received ping) {
    int size = settings.messageSize();
    ByteBuffer bytes = buffers.buffer();
    bytes.put(size, bytes, 0, ping.byteLength());
    echoNext();
    client.send(buffers, size, ping.byteLength()).onFailure(e -> {
      if (!stopping) {
        LOG.warning("sending a pong failed: " + Steps.describe(e));
      }
    });
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    Future<Void> stopped = server == null ? Future.succeededFuture() : server.close();
    return stopped.eventually(() -> peer == null ? Future.succeededFuture() : peer.close());
  }
}
