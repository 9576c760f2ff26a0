package dev.rpma.vertx.testkit;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PrivateData;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A server and a client on one test kit: the server accepts with its region's descriptor as
 * private data, the client decodes it, as an application would.
 */
final class KitPair implements AutoCloseable {

  static final int SIZE = 4096;
  static final Set<MemoryUsage> CLIENT_USAGES = EnumSet.of(MemoryUsage.READ_DST,
      MemoryUsage.WRITE_SRC, MemoryUsage.SEND, MemoryUsage.RECV);

  final RpmaTestKit kit;
  final RpmaPeer serverPeer;
  final RpmaPeer clientPeer;
  final MemoryRegion serverRegion;
  final MemoryRegion clientRegion;
  final RpmaServer server;
  final RpmaConnection client;
  final RpmaConnection serverSide;
  final RemoteMemoryRegion remote;

  KitPair(Vertx vertx, Set<MemoryUsage> serverUsages, ConnectionOptions options) {
    kit = RpmaTestKit.create();
    serverPeer = await(kit.openPeer(vertx, "10.0.2.15"));
    clientPeer = await(kit.openPeer(vertx, "10.0.2.16"));
    serverRegion = await(serverPeer.register(ByteBuffer.allocateDirect(SIZE), serverUsages));
    clientRegion = await(clientPeer.register(ByteBuffer.allocateDirect(SIZE), CLIENT_USAGES));
    Promise<RpmaConnection> accepted = Promise.promise();
    server = await(serverPeer.listen(0, "10.0.2.15", options, null,
        req -> req.accept(PrivateData.frame(serverRegion.descriptor())).onComplete(accepted)));
    client = await(clientPeer.connect(new RpmaConnectOptions().setHost("10.0.2.15")
        .setPort(server.actualPort()).setConnectionOptions(options)));
    serverSide = await(accepted.future());
    remote = RemoteMemoryRegion.fromDescriptor(PrivateData.unframe(client.remotePrivateData()));
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("no result within 30 s", e);
    }
  }

  static Throwable awaitFailure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("no result within 30 s", e);
    }
    throw new AssertionError("succeeded, a failure was expected");
  }

  static Duration timeout() {
    return Duration.ofSeconds(30);
  }

  @Override
  public void close() {
    await(clientPeer.close());
    await(serverPeer.close());
  }
}
