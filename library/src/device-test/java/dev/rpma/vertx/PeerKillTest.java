package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
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
      RpmaConnection conn = await(peer.connect(port, ip));
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      Promise<Throwable> lost = Promise.promise();
      conn.closeHandler(lost::complete);
      WriteWindow writes = WriteWindow.start(conn, remote, local, 64, 4096);
      await(writes.busy());

      long killedAt = System.nanoTime();
      server.destroyForcibly().waitFor();

      Throwable why = await(lost.future());
      System.out.printf("loss reported %d ms after the kill: %s%n",
          (System.nanoTime() - killedAt) / 1_000_000, why.getMessage());
      assertInstanceOf(RpmaConnectionClosedException.class, why);
      List<Future<Void>> all = writes.issued();
      await(Future.join(all).otherwiseEmpty());
      assertTrue(all.stream().allMatch(Future::isComplete), "no write is left pending");
      assertTrue(all.stream().anyMatch(Future::failed), "the writes in flight failed");
      await(conn.close());
      await(remote.close());
      assertEquals(fdsBefore, ProcessResources.rdmaFds(), "the connection's RDMA fds were released");
      await(peer.close());
    } finally {
      server.destroyForcibly();
      await(vertx.close());
    }
  }
}
