package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.junit5.ProvidedBy;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxProvider;
import io.vertx.junit5.VertxTestContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test as an application's developer writes it with vertx-junit5 (TESTING.md, "Testing your
 * own application"): the {@code Vertx} that {@link VertxExtension} injects is on NIO, which the
 * library refuses with its native-transport message, so the test asks for a native one with
 * {@link ProvidedBy} and a {@link VertxProvider} of a few lines; {@link VertxTestContext}
 * carries the outcome. Only the library's API is used, as in a user's test.
 */
@Tag("rdma")
@ExtendWith(VertxExtension.class)
@Timeout(value = 120, timeUnit = TimeUnit.SECONDS) // the emulated device is ~10x slower
class VertxExtensionTest {

  /** The provider a user writes once: native epoll, the blocked-thread limit for the emulator. */
  public static final class NativeVertx implements VertxProvider {
    @Override
    public Vertx get() {
      return Vertx.vertx(new VertxOptions().setPreferNativeTransport(true)
          .setMaxEventLoopExecuteTime(10).setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS));
    }
  }

  private final String address = RdmaTestSupport.deviceIp();
  private final int port = RdmaTestSupport.nextPort();

  @Test
  void anInjectedNativeVertxWritesAndReadsBackOverRdma(
      @ProvidedBy(NativeVertx.class) Vertx vertx, VertxTestContext test) {
    byte[] data = "written by a VertxExtension test".getBytes(StandardCharsets.US_ASCII);
    Future<RpmaPeer> opened = RpmaPeer.open(vertx, address);
    opened.compose(peer -> peer.register(ByteBuffer.allocateDirect(64),
            MemoryUsage.WRITE_DST, MemoryUsage.READ_SRC)
        .compose(serverMemory -> peer.listen(port, address, new ConnectionOptions(),
            request -> request.accept(
                RegionOffer.of(PeerConfig.create(false), serverMemory).toBytes())))
        .compose(server -> peer.register(ByteBuffer.allocateDirect(128).put(0, data),
            MemoryUsage.WRITE_SRC, MemoryUsage.READ_DST))
        .compose(local -> peer.connect(port, address).compose(conn -> {
          RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData())
              .applyTo(conn);
          return conn.write(remote, 0, local, 0, data.length)
              .compose(v -> conn.read(local, 64, remote, 0, data.length))
              .map(v -> StandardCharsets.US_ASCII.decode(
                  local.buffer().slice(64, data.length)).toString());
        }))
        .eventually(peer::close))
        .onComplete(test.succeeding(readBack -> test.verify(() -> {
          assertEquals(new String(data, StandardCharsets.US_ASCII), readBack);
          test.completeNow();
        })));
  }

  @Test
  void theDefaultInjectedVertxIsRefusedWithTheFix(Vertx vertx, VertxTestContext test) {
    RpmaPeer.open(vertx, address).onComplete(test.failing(e -> test.verify(() -> {
      assertInstanceOf(IllegalStateException.class, e);
      assertTrue(e.getMessage().contains("setPreferNativeTransport(true)"), e.getMessage());
      test.completeNow();
    })));
  }
}
