package sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.testkit.RpmaTestKit;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A user's tests of their RDMA code, on the test kit, on vertx-junit5's NIO Vert.x. */
@ExtendWith(VertxExtension.class)
class RemoteLogTest {

  private final RpmaTestKit kit = RpmaTestKit.create();
  private MemoryRegion serverLog;
  private RpmaConnection serverSide;
  private RemoteLog log;

  @BeforeEach
  void connect(Vertx vertx) throws Exception {
    assertFalse(vertx.isNativeTransportEnabled(), "vertx-junit5's Vert.x runs on NIO");
    RpmaPeer server = await(kit.openPeer(vertx, "10.0.2.15"));
    RpmaPeer client = await(kit.openPeer(vertx, "10.0.2.16"));
    serverLog = await(server.register(ByteBuffer.allocateDirect(64),
        EnumSet.of(MemoryUsage.WRITE_DST, MemoryUsage.RECV)));
    Promise<RpmaConnection> accepted = Promise.promise();
    int port = await(server.listen(0, "10.0.2.15", new ConnectionOptions(), null,
        req -> req.accept(RegionOffer.of(PeerConfig.create(false), serverLog).toBytes())
            .onComplete(accepted)))
        .actualPort();
    RpmaConnection connection = await(client.connect(port, "10.0.2.15"));
    serverSide = await(accepted.future());
    MemoryRegion staging = await(client.register(ByteBuffer.allocateDirect(64),
        EnumSet.of(MemoryUsage.WRITE_SRC, MemoryUsage.SEND)));
    // the offer as users make it: the region's descriptor and the server's peer configuration
    RemoteMemoryRegion remote = RegionOffer.fromBytes(connection.remotePrivateData())
        .applyTo(connection);
    log = new RemoteLog(connection, staging, remote);
  }

  @AfterEach
  void noRdmaLibraryWasLoaded() throws Exception {
    String maps = Files.readString(Path.of("/proc/self/maps"));
    for (String library : new String[] {"librpma", "libvertx_rpma", "libibverbs", "librdmacm"}) {
      assertFalse(maps.contains(library), library + " is mapped into the test's JVM");
    }
  }

  @Test
  void anAppendedRecordIsInTheServersMemoryAndTheServerIsToldWhereItEnds() throws Exception {
    // the server's side posts a receive (with a zero-length buffer for immediate data only)
    var told = serverSide.recv(serverLog, 0, 0);

    long at = await(log.append("first record"));

    Received r = await(told);
    assertEquals(0, at);
    assertEquals(12, r.immediate());
    byte[] bytes = new byte[12];
    serverLog.buffer().get(0, bytes);
    assertEquals("first record", new String(bytes, StandardCharsets.UTF_8));
  }

  @Test
  void aFailingWriteFailsTheAppend() throws Exception {
    kit.failNext(RpmaCompletionException.REM_ACCESS_ERR);

    Throwable failure = awaitFailure(log.append("never lands"));

    assertEquals(RpmaCompletionException.REM_ACCESS_ERR,
        assertInstanceOf(RpmaCompletionException.class, failure).status());
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static Throwable awaitFailure(io.vertx.core.Future<?> future) throws Exception {
    try {
      future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("succeeded, a failure was expected");
  }
}
