package dev.rpma.vertx;

import static dev.rpma.vertx.RdmaTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The peer process dies (kill -9) with hundreds of operations in flight. */
@Tag("rdma")
class PeerKillTest {

  @Test
  void killingThePeerProcessReportsLossFailsEveryPendingOperationAndLeaksNoFd()
      throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    Process server = ChildProcess.start(PeerServerMain.class, "LISTENING", ip,
        String.valueOf(port));
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(4096),
          MemoryUsage.WRITE_SRC));
      long fdsBefore = ProcessResources.rdmaFds();
      RpmaConnection conn = await(peer.connect(ip, port, new ConnectionOptions(), null));
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      Promise<Throwable> lost = Promise.promise();
      conn.closeHandler(lost::complete);
      List<Future<Void>> writes = new ArrayList<>();
      Promise<Void> someCompleted = Promise.promise();
      // a window of 64 writes, refilled as they complete, until the connection breaks
      conn.context().runOnContext(v -> new Runnable() {
        @Override
        public void run() {
          Future<Void> w = conn.write(remote, 0, local, 0, 4096);
          writes.add(w);
          w.onComplete(ar -> {
            if (writes.size() == 300) {
              someCompleted.tryComplete();
            }
            if (ar.succeeded()) {
              run();
            }
          });
          if (writes.size() < 64) {
            run();
          }
        }
      }.run());
      await(someCompleted.future());

      long killedAt = System.nanoTime();
      server.destroyForcibly().waitFor();

      Throwable why = await(lost.future());
      System.out.printf("loss reported %d ms after the kill: %s%n",
          (System.nanoTime() - killedAt) / 1_000_000, why.getMessage());
      assertInstanceOf(RpmaConnectionClosedException.class, why);
      List<Future<Void>> all = await(onLoop(conn, () -> List.copyOf(writes)));
      await(Future.join(all).otherwiseEmpty());
      assertTrue(all.stream().allMatch(Future::isComplete), "no write is left pending");
      assertTrue(all.stream().anyMatch(Future::failed), "the writes in flight failed");
      await(conn.close());
      remote.close();
      assertEquals(fdsBefore, ProcessResources.rdmaFds(), "the connection's RDMA fds were released");
      await(peer.close());
    } finally {
      server.destroyForcibly();
      await(vertx.close());
    }
  }

  private static <T> Future<T> onLoop(RpmaConnection conn, java.util.function.Supplier<T> get) {
    Promise<T> p = Promise.promise();
    conn.context().runOnContext(v -> p.complete(get.get()));
    return p.future();
  }
}
