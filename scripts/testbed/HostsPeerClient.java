import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The client half of the library's two-process test, for another host: run by hosts-smoke.sh
 * (java's source-file mode, the library and its dependencies on the class path) against
 * PeerServerMain (library test classes) on h0. Opens the device of this host's RPMA_TEST_IP,
 * connects to SERVER_IP:PORT (retrying while the server JVM is still starting), writes 4 KiB
 * into the server's region, flushes it, reads it back and compares, then disconnects (which
 * ends the server). Prints "PASS ..." and exits 0, or says what failed and exits 1.
 *
 * <p>usage: java -cp CLASSPATH HostsPeerClient.java SERVER_IP PORT
 */
public final class HostsPeerClient {

  private static final int ATTEMPTS = 60;

  private HostsPeerClient() {
  }

  public static void main(String[] args) throws Exception {
    String serverIp = args[0];
    int port = Integer.parseInt(args[1]);
    String myIp = System.getenv("RPMA_TEST_IP");
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    int rc = 1;
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, myIp));
      MemoryRegion local = await(peer.register(ByteBuffer.allocateDirect(8192),
          MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST));
      RpmaConnection conn = connect(peer, serverIp, port);
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      byte[] data = new byte[4096];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (i * 7 + 3);
      }
      local.buffer().put(0, data);
      await(conn.write(remote, 0, local, 0, data.length)
          .compose(v -> conn.flush(remote, 0, data.length, FlushType.PERSISTENT))
          .compose(v -> conn.read(local, 4096, remote, 0, data.length)));
      byte[] back = new byte[data.length];
      local.buffer().get(4096, back);
      await(conn.close());
      await(remote.close());
      await(peer.close());
      if (Arrays.equals(data, back)) {
        System.out.println("PASS: " + myIp + " (" + peer.deviceName() + ") wrote, flushed and read back "
            + data.length + " bytes of " + serverIp + ":" + port);
        rc = 0;
      } else {
        System.out.println("FAIL: the bytes read back from " + serverIp + " differ");
      }
    } catch (Exception e) {
      System.out.println("FAIL: " + e);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    System.exit(rc);
  }

  /** The server is another JVM on another host, maybe not listening yet: retry for a while. */
  private static RpmaConnection connect(RpmaPeer peer, String ip, int port) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return await(peer.connect(port, ip));
      } catch (Exception e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
        Thread.sleep(1000);
      }
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
