package dev.rpma.examples;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
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
import java.util.logging.Logger;

/**
 * The log server: maps the log file, registers the mapping so that a client can write and
 * flush into it, listens, and offers the region to its one client in the accept's private
 * data. From then on the server does nothing per record: the client's writes land in the file's
 * pages without the server's CPU. At the end, {@link #verify()} checks the file.
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
  private LogFile file;
  private RpmaPeer peer;
  private RpmaServer server;
  private byte[] offer;
  private RpmaConnection writer;
  private final Promise<Void> writerLeft = Promise.promise();

  public LogServerVerticle(LogSettings settings) {
    this.settings = settings;
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
          // The offer: the region's descriptor, and a peer configuration declaring that writes
          // reach persistence directly, as they do on DAX persistent memory (librpma refuses a
          // PERSISTENT flush to a peer that does not). The mapped file stands in for such
          // memory here; see LogFile.force for the rest of the story.
          offer = RegionOffer.of(PeerConfig.create(true), region).toBytes();
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
    request.accept(offer)
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
