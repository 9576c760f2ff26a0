package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
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
      peer.connect(port, ip).onComplete(ar -> {
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
      await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> req.accept(null)
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

  /**
   * Reads a region of the server's from a worker verticle; records where the Futures ran and
   * what its connection's context() said.
   */
  static final class ReadingWorker extends Worker {
    volatile Context own;
    volatile Context registerAnsweredOn;
    volatile Context connectionContext;
    volatile Context readAnsweredOn;

    ReadingWorker(RpmaPeer peer, String ip, int port) {
      super(peer, ip, port);
    }

    @Override
    public void start(Promise<Void> started) {
      own = context;
      peer.register(ByteBuffer.allocateDirect(64), MemoryUsage.READ_DST).compose(local -> {
        registerAnsweredOn = Vertx.currentContext();
        return peer.connect(port, ip).compose(conn -> {
          connectionContext = conn.context();
          RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
              RegionOffer.fromBytes(conn.remotePrivateData()).regionDescriptor());
          return conn.read(local, 0, remote, 0, 64);
        });
      }).onComplete(ar -> {
        readAnsweredOn = Vertx.currentContext();
        started.handle(ar);
      });
    }
  }

  /** Serves a region, deploys a {@link ReadingWorker} against it and returns it, started. */
  private static ReadingWorker readFromAWorker(Vertx vertx) {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
    RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
    MemoryRegion region = await(serverPeer.register(ByteBuffer.allocateDirect(64),
        MemoryUsage.READ_SRC));
    byte[] offer = RegionOffer.of(PeerConfig.create(false), region).toBytes();
    await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> req.accept(offer)));
    ReadingWorker worker = new ReadingWorker(clientPeer, ip, port);
    await(vertx.deployVerticle(worker,
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)));
    return worker;
  }

  @Test
  void aWorkerVerticlesOperationsCompleteOnItsOwnContext() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      ReadingWorker worker = readFromAWorker(vertx);

      assertSame(worker.own, worker.registerAnsweredOn, "register");
      assertSame(worker.own, worker.readAnsweredOn, "read");
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void aWorkerMadeConnectionsContextIsTheWorkersOwnWhereItsFuturesRun() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      ReadingWorker worker = readFromAWorker(vertx);

      assertSame(worker.own, worker.connectionContext, "context() is the worker's own context");
      assertTrue(worker.connectionContext.isWorkerContext(), "a worker context");
      assertSame(worker.connectionContext, worker.readAnsweredOn, "the read ran on context()");
    } finally {
      await(vertx.close());
    }
  }
}
