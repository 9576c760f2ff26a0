package dev.rpma.vertx;

import static dev.rpma.vertx.RdmaTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a worker verticle makes is its own: closed by its undeploy, answered on its context. */
@Tag("rdma")
class WorkerVerticleTest {

  /** A verticle given a peer (so that only what it makes with it is its own) and a server. */
  abstract static class Worker extends AbstractVerticle {
    final RpmaPeer peer;
    final String ip;
    final int port;

    Worker(RpmaPeer peer, String ip, int port) {
      this.peer = peer;
      this.ip = ip;
      this.port = port;
    }
  }

  /** Connects in start(). */
  static final class ConnectingWorker extends Worker {
    volatile boolean connectAnsweredOnOwnContext;

    ConnectingWorker(RpmaPeer peer, String ip, int port) {
      super(peer, ip, port);
    }

    @Override
    public void start(Promise<Void> started) {
      Context own = context;
      peer.connect(ip, port, new ConnectionOptions(), null).onComplete(ar -> {
        connectAnsweredOnOwnContext = Vertx.currentContext() == own;
        started.handle(ar.mapEmpty());
      });
    }
  }

  @Test
  void aWorkerVerticlesConnectionIsClosedByItsUndeployAndAnsweredOnItsOwnContext() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
      Promise<Throwable> serverSideClosed = Promise.promise();
      await(serverPeer.listen(ip, port, new ConnectionOptions(), req -> req.accept(null)
          .onSuccess(c -> c.closeHandler(serverSideClosed::tryComplete))));
      ConnectingWorker worker = new ConnectingWorker(clientPeer, ip, port);
      String id = await(vertx.deployVerticle(worker,
          new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)));

      await(vertx.undeploy(id));

      Throwable why = await(serverSideClosed.future());
      assertInstanceOf(RpmaConnectionClosedException.class, why);
      assertTrue(worker.connectAnsweredOnOwnContext,
          "the connect Future completed on the worker's own context");
    } finally {
      await(vertx.close());
    }
  }

  /** Reads a region of the server's from a worker verticle; records where the Futures ran. */
  static final class ReadingWorker extends Worker {
    volatile boolean readAnsweredOnOwnContext;
    volatile boolean registerAnsweredOnOwnContext;

    ReadingWorker(RpmaPeer peer, String ip, int port) {
      super(peer, ip, port);
    }

    @Override
    public void start(Promise<Void> started) {
      Context own = context;
      peer.register(ByteBuffer.allocateDirect(64), MemoryUsage.READ_DST).compose(local -> {
        registerAnsweredOnOwnContext = Vertx.currentContext() == own;
        return peer.connect(ip, port, new ConnectionOptions(), null).compose(conn -> {
          RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
              RegionOffer.fromBytes(conn.remotePrivateData()).regionDescriptor());
          return conn.read(local, 0, remote, 0, 64);
        });
      }).onComplete(ar -> {
        readAnsweredOnOwnContext = Vertx.currentContext() == own;
        started.handle(ar);
      });
    }
  }

  @Test
  void aWorkerVerticlesOperationsCompleteOnItsOwnContext() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion region = await(serverPeer.register(ByteBuffer.allocateDirect(64),
          MemoryUsage.READ_SRC));
      byte[] offer = RegionOffer.of(PeerConfig.create(false), region).toBytes();
      await(serverPeer.listen(ip, port, new ConnectionOptions(), req -> req.accept(offer)));
      ReadingWorker worker = new ReadingWorker(clientPeer, ip, port);

      await(vertx.deployVerticle(worker,
          new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)));

      assertTrue(worker.registerAnsweredOnOwnContext, "register");
      assertTrue(worker.readAnsweredOnOwnContext, "read");
    } finally {
      await(vertx.close());
    }
  }

  /** Reads from a worker verticle; records what its connection's context() says. */
  static final class ContextReportingWorker extends Worker {
    volatile Context own;
    volatile Context reported;
    volatile Context readAnsweredOn;

    ContextReportingWorker(RpmaPeer peer, String ip, int port) {
      super(peer, ip, port);
    }

    @Override
    public void start(Promise<Void> started) {
      own = context;
      peer.register(ByteBuffer.allocateDirect(64), MemoryUsage.READ_DST).compose(local ->
          peer.connect(ip, port, new ConnectionOptions(), null).compose(conn -> {
            reported = conn.context();
            RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
                RegionOffer.fromBytes(conn.remotePrivateData()).regionDescriptor());
            return conn.read(local, 0, remote, 0, 64);
          })).onComplete(ar -> {
            readAnsweredOn = Vertx.currentContext();
            started.handle(ar);
          });
    }
  }

  @Test
  void aWorkerMadeConnectionsContextIsTheWorkersOwnWhereItsFuturesRun() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion region = await(serverPeer.register(ByteBuffer.allocateDirect(64),
          MemoryUsage.READ_SRC));
      byte[] offer = RegionOffer.of(PeerConfig.create(false), region).toBytes();
      await(serverPeer.listen(ip, port, new ConnectionOptions(), req -> req.accept(offer)));
      ContextReportingWorker worker = new ContextReportingWorker(clientPeer, ip, port);

      await(vertx.deployVerticle(worker,
          new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)));

      assertSame(worker.own, worker.reported, "context() is the worker's own context");
      assertTrue(worker.reported.isWorkerContext(), "a worker context: " + worker.reported);
      assertSame(worker.reported, worker.readAnsweredOn, "the read's Future ran on context()");
    } finally {
      await(vertx.close());
    }
  }
}
