package dev.rpma.examples;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.PersistService;
import dev.rpma.vertx.RangePersister;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The log server: maps the log file, registers the mapping so that a client can write into it,
 * listens, and offers the region to its one client in the accept's private data. The client's
 * writes land in the file's pages without the server's CPU. A file on ordinary storage: the
 * offer says so ({@code PeerConfig.create(false)}) and each append is made durable by the
 * server persisting its range on the client's request ({@link PersistService}: msync of the
 * mapping, then the acknowledgement). A device-DAX device (persistent memory): the offer
 * declares it ({@code create(true)}) and the client's persistent flush makes an append durable.
 * At the end, {@link #verify()} checks the log.
 */
public final class LogServerVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(LogServerVerticle.class.getName());

  /**
   * The client writes and flushes (a persistent flush is a read on this device, hence
   * READ_SRC); the server never reads or sends through the device itself.
   */
  static final Set<MemoryUsage> LOG_USAGES = EnumSet.of(MemoryUsage.WRITE_DST,
      MemoryUsage.READ_SRC, MemoryUsage.FLUSH_PERSISTENT, MemoryUsage.FLUSH_VISIBILITY);

  private final LogSettings settings;
  private final Function<MemoryRegion, RangePersister> persister;
  private LogFile file;
  private RpmaPeer peer;
  private RpmaServer server;
  private byte[] offer;
  private MemoryRegion logRegion;
  private RpmaConnection writer;
  private final Promise<Void> writerLeft = Promise.promise();

  public LogServerVerticle(LogSettings settings) {
    this(settings, RangePersister::of);
  }

  /**
   * A server persisting with another persister than the mapping's own: only the power-loss
   * run's controls (PowerLossControlServer), which show what the checker catches without it.
   */
  LogServerVerticle(LogSettings settings, Function<MemoryRegion, RangePersister> persister) {
    this.settings = settings;
    this.persister = persister;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> LogFile.create(settings.file(), settings.fileSize()))
        .compose(mapped -> {
          file = mapped;
          return RpmaPeer.open(vertx, settings.address());
        })
        .compose(opened -> {
          peer = opened;
          return file.register(peer, LOG_USAGES, settings.offsetOf(0), settings.recordsEnd());
        })
        .compose(region -> {
          // The offer: the region's descriptor, and an honest peer configuration: a file in
          // the page cache does not take RDMA writes into persistence, so the client's durable
          // writer asks this server to persist each range (PersistService), rather than
          // trusting a flush that would only reach the page cache; device-DAX memory does.
          logRegion = region;
          offer = RegionOffer.of(PeerConfig.create(file.persistentMemory()), region).toBytes();
          return peer.listen(settings.port(), settings.address(), connectionOptions(settings),
              this::onRequest);
        })
        .onSuccess(listening -> server = listening);
  }

  /** Queues that hold a full window of appends, each a write and a flush. */
  static ConnectionOptions connectionOptions(LogSettings settings) {
    int inFlight = Math.max(64, 2 * settings.window());
    return new ConnectionOptions().setSqSize(inFlight).setCqSize(inFlight);
  }

  /** A log has one writer: the first client is accepted, later ones are turned away. */
  private void onRequest(RpmaConnectionRequest request) {
    if (writer != null) {
      LOG.warning("a second client asked to connect: rejected, the log has a writer");
      request.reject();
      return;
    }
    PersistService.accept(peer, request, offer, logRegion, persister.apply(logRegion))
        .onSuccess(conn -> {
          writer = conn;
          conn.endHandler(v -> writerLeft.tryComplete());
        })
        .onFailure(e -> LOG.warning("accepting the client failed: " + Steps.describe(e)));
  }

  /** Completes when the client that was accepted has gone (its connection closed). */
  public Future<Void> writerLeft() {
    return writerLeft.future();
  }

  /** The device this server's region is registered with, e.g. rxe0. */
  public String deviceName() {
    return peer.deviceName();
  }

  /** The log file's path. */
  public String filePath() {
    return file.path().toString();
  }

  /**
   * Writes the mapping back to the file, then reads the file and checks every record.
   * Call after the client has finished.
   */
  public Future<LogVerification> verify() {
    return vertx.executeBlocking(() -> {
      file.force();
      return LogVerifier.verify(file, settings);
    });
  }

  @Override
  public Future<?> stop() {
    // Stop listening first; closing the peer then closes the rest it made (the connection,
    // the region).
    Future<Void> stopped = server == null ? Future.succeededFuture() : server.close();
    return stopped.eventually(() -> peer == null ? Future.succeededFuture() : peer.close())
        .eventually(() -> vertx.executeBlocking(() -> {
          if (file != null) {
            file.close();
          }
          return null;
        }));
  }
}
