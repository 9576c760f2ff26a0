package dev.rpma.examples;

import dev.rpma.vertx.DurabilityMethod;
import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.nio.ByteBuffer;

/**
 * The log client, with Futures: connects to the server, takes the log's region from the
 * server's offer, then appends the records with a window of appends in flight.
 */
public final class LogClientVerticle extends VerticleBase implements LogClient {

  private final LogSettings settings;
  private final Promise<ClientReport> result = Promise.promise();
  private RpmaPeer peer;
  private MemoryRegion slots;
  private RpmaConnection connection;
  private RemoteMemoryRegion log;
  private DurableWriter durable;

  public LogClientVerticle(LogSettings settings) {
    this.settings = settings;
  }

  @Override
  public String style() {
    return "Java Futures";
  }

  @Override
  public DurabilityMethod durability() {
    return durable == null ? null : durable.method();
  }

  @Override
  public Future<ClientReport> result() {
    return result.future();
  }

  /** Done once connected; the appends then run on this verticle's event loop. */
  @Override
  public Future<?> start() {
    return RpmaPeer.open(vertx, settings.address())
        .compose(opened -> {
          peer = opened;
          return peer.register(ByteBuffer.allocateDirect(LogAppender.slotBytes(settings)),
              MemoryUsage.WRITE_SRC);
        })
        .compose(registered -> {
          slots = registered;
          return peer.connect(new RpmaConnectOptions()
              .setHost(settings.serverAddress()).setPort(settings.port())
              .setConnectionOptions(LogServerVerticle.connectionOptions(settings)));
        })
        .compose(connected -> {
          connection = connected;
          // The server's offer: its peer configuration (applied to the connection: the
          // persistent flush depends on it) and the log's region; the durable writer's method
          // follows the configuration (server persist, for a log on ordinary storage).
          RegionOffer offer = RegionOffer.fromBytes(connection.remotePrivateData());
          log = offer.applyTo(connection);
          return LogClientChecks.check(log, settings)
              .compose(v -> DurableWriter.open(peer, connection, log, offer.peerConfig()));
        })
        .onSuccess(writer -> {
          durable = writer;
          appendAll();
        });
  }

  private void appendAll() {
    LogAppender appender = new LogAppender(connection, slots, log, settings, durable);
    WindowedRunner.run("record", settings.records(), settings.window(),
            appender::append)
        .map(m -> new ClientReport(peer.deviceName(), m, connection.stats()))
        .onComplete(result);
  }

  @Override
  public Future<?> stop() {
    result.tryFail("the client was stopped before it finished");
    // Disconnect first: the server sees its writer leave.
    Future<Void> closed = connection == null ? Future.succeededFuture() : connection.close();
    return closed
        .eventually(() -> log == null ? Future.succeededFuture() : log.close())
        .eventually(() -> peer == null ? Future.succeededFuture() : peer.close());
  }
}
