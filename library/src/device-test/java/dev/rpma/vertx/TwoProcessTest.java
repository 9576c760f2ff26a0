package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Client and server in two JVMs on the real device. */
@Tag("rdma")
class TwoProcessTest {

  @Test
  void aClientWritesIntoAnotherProcessesMemoryAndReadsItBack() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Process server = ChildProcess.start(PeerServerMain.class, "LISTENING", ip,
        String.valueOf(port));
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {

      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(8192),
          MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST));
      RpmaConnection conn = await(peer.connect(port, ip));
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      byte[] data = new byte[4096];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (i * 13 + 1);
      }
      local.buffer().put(0, data);

      await(conn.write(remote, 1024, local, 0, data.length)
          .compose(v -> conn.flush(remote, 1024, data.length, FlushType.PERSISTENT))
          .compose(v -> conn.read(local, 4096, remote, 1024, data.length)));
      byte[] back = new byte[data.length];
      local.buffer().get(4096, back);
      await(conn.close());
      await(remote.close());
      await(peer.close());

      assertArrayEquals(data, back, "the bytes came back from the other process");
      assertTrue(server.waitFor(Await.SECONDS, TimeUnit.SECONDS),
          "the server exited after the client disconnected");
      assertEquals(0, server.exitValue());
    } finally {
      server.destroyForcibly();
      await(vertx.close());
    }
  }
}
