package dev.rpma.vertx;

import static dev.rpma.vertx.RdmaTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Client and server in two JVMs on the real device. */
@Tag("rdma")
class TwoProcessTest {

  /**
   * The class path of this test, also under the JUnit console launcher, which loads the tests
   * through a class loader of its own rather than java.class.path.
   */
  private static String testClassPath() {
    List<String> entries = new ArrayList<>();
    if (TwoProcessTest.class.getClassLoader() instanceof URLClassLoader loader) {
      for (URL url : loader.getURLs()) {
        try {
          entries.add(Path.of(url.toURI()).toString());
        } catch (URISyntaxException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    entries.add(System.getProperty("java.class.path"));
    return String.join(File.pathSeparator, entries);
  }

  @Test
  void aClientWritesIntoAnotherProcessesMemoryAndReadsItBack() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process server = new ProcessBuilder(java, "-cp", testClassPath(),
        PeerServerMain.class.getName(), ip, String.valueOf(port))
        .redirectErrorStream(true).start();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      BufferedReader out = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.equals("LISTENING")) {
        System.out.println("[server] " + line);
      }
      assertEquals("LISTENING", line, "the server process came up");

      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(8192),
          MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST));
      RpmaConnection conn = await(peer.connect(ip, port, new ConnectionOptions(), null));
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
      remote.close();
      await(peer.close());

      assertArrayEquals(data, back, "the bytes came back from the other process");
      assertTrue(server.waitFor(RdmaTestSupport.AWAIT_SECONDS, TimeUnit.SECONDS),
          "the server exited after the client disconnected");
      assertEquals(0, server.exitValue());
    } finally {
      server.destroyForcibly();
      await(vertx.close());
    }
  }
}
