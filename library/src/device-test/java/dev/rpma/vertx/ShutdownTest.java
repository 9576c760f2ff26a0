package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Undeploying a verticle, or closing Vert.x, with operations in flight: nothing hangs. */
@Tag("rdma")
class ShutdownTest {

  /** Connects from its own context and keeps 64 writes in flight until it is undeployed. */
  static final class WritingVerticle extends AbstractVerticle {
    final String ip;
    final int port;
    final List<Future<Void>> writes = new CopyOnWriteArrayList<>();
    final Promise<Void> busy = Promise.promise();
    RpmaConnection connection;
    RemoteMemoryRegion remote;
    MemoryRegion local;

    WritingVerticle(String ip, int port) {
      this.ip = ip;
      this.port = port;
    }

    @Override
    public void start(Promise<Void> started) {
      RpmaPeer.open(vertx, ip).compose(peer -> peer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_SRC).compose(region -> peer.connect(port, ip).map(conn -> {
            connection = conn;
            local = region;
            remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
            for (int i = 0; i < 64; i++) {
              writeForever(conn, remote, local);
            }
            return (Void) null;
          }))).onComplete(started);
    }

    private void writeForever(RpmaConnection conn, RemoteMemoryRegion remote,
        MemoryRegion local) {
      Future<Void> w = conn.write(remote, 0, local, 0, 4096);
      writes.add(w);
      w.onComplete(ar -> {
        if (writes.size() > 500) {
          busy.tryComplete();
        }
        if (ar.succeeded()) {
          writeForever(conn, remote, local);
        }
      });
    }
  }

  static RpmaServer serve(RpmaPeer serverPeer, String ip, int port) {
    MemoryRegion region = await(serverPeer.register(ByteBuffer.allocateDirect(64 * 1024),
        MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_PERSISTENT));
    return await(serverPeer.listen(port, ip, new ConnectionOptions(),
        req -> req.accept(RegionOffer.of(PeerConfig.create(true), region).toBytes())));
  }

  @Test
  void undeployingAVerticleWithWritesInFlightClosesItsConnectionAndFailsThem() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
      serve(serverPeer, ip, port);
      WritingVerticle verticle = new WritingVerticle(ip, port);
      String id = await(vertx.deployVerticle(verticle));
      await(verticle.busy.future());

      await(vertx.undeploy(id));

      List<Future<Void>> writes = new ArrayList<>(verticle.writes);
      await(Future.join(writes).otherwiseEmpty());
      assertTrue(writes.stream().allMatch(Future::isComplete), "no write is left pending");
      Throwable failure = writes.stream().filter(Future::failed).map(Future::cause).findFirst()
          .orElseThrow(() -> new AssertionError("some writes were in flight at undeploy"));
      assertInstanceOf(RpmaConnectionClosedException.class, failure);
      Throwable after = Await.awaitFailure(verticle.connection.write(
          verticle.remote, 0, verticle.local, 0, 64));
      assertTrue(after instanceof RpmaConnectionClosedException
          || after instanceof IllegalStateException, "refused after undeploy: " + after);
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void closingVertxWithWritesInFlightCompletesAndFailsThem() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
    serve(serverPeer, ip, port);
    WritingVerticle verticle = new WritingVerticle(ip, port);
    await(vertx.deployVerticle(verticle));
    await(verticle.busy.future());

    await(vertx.close());

    List<Future<Void>> writes = new ArrayList<>(verticle.writes);
    assertTrue(writes.stream().allMatch(Future::isComplete), "no write is left pending");
    assertTrue(writes.stream().anyMatch(Future::failed), "the writes in flight failed");
  }
}
