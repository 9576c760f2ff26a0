package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.netty.channel.EventLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The two ends on the device, in one JVM: a server peer whose region is written, read and
 * flushed, and a client peer with two connections to it: one through the library, one made
 * with librpma directly for the thread-hop design. Each connection has an event-loop context
 * on a loop thread of its own, the server another: no design shares its loop.
 *
 * <p>The server side of a one-sided operation has nothing to do, so sharing the JVM with it
 * costs the client nothing while it measures.
 */
final class Fixture implements AutoCloseable {

  private static final long AWAIT_SECONDS = 300; // the emulator is slow; never hang forever
  /** Enough loops for the server and the two connections to have one each. */
  private static final int EVENT_LOOPS = 4;

  final Vertx vertx;
  final LibraryDriver library;
  final ThreadHopConnection threadHop;
  private final RpmaPeer serverPeer;
  private final RpmaPeer clientPeer;
  private final RpmaServer server;
  /**
   * Held, and closed with the rest: clients know it by its offered descriptor only (it was
   * held by nothing once, and after a collection the next registration deregistered it under
   * the connected clients, before the library kept regions whose descriptor was taken).
   */
  private final MemoryRegion serverRegion;

  private Fixture(Vertx vertx, RpmaPeer serverPeer, RpmaPeer clientPeer, RpmaServer server,
      MemoryRegion serverRegion, LibraryDriver library, ThreadHopConnection threadHop) {
    this.vertx = vertx;
    this.serverPeer = serverPeer;
    this.serverRegion = serverRegion;
    this.clientPeer = clientPeer;
    this.server = server;
    this.library = library;
    this.threadHop = threadHop;
  }

  static Vertx nativeVertx() {
    // the default (2 x CPUs) would be 2 loops when pinned to one vCPU: too few to keep apart
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true)
        .setEventLoopPoolSize(EVENT_LOOPS));
    if (!vertx.isNativeTransportEnabled()) {
      Throwable why = vertx.unavailableNativeTransportCause();
      vertx.close();
      throw new IllegalStateException("native epoll transport is not available", why);
    }
    return vertx;
  }

  static Fixture open(BenchConfig config) {
    String ip = config.address;
    ConnectionOptions options = BenchConfig.connectionOptions();
    Vertx vertx = nativeVertx();
    VertxInternal vx = (VertxInternal) vertx;
    RpmaPeer serverPeer = await(RpmaPeer.open(vertx, ip));
    RpmaPeer clientPeer = await(RpmaPeer.open(vertx, ip));
    MemoryRegion serverRegion = await(serverPeer.register(
        ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE), EnumSet.of(MemoryUsage.READ_SRC,
            MemoryUsage.WRITE_DST, MemoryUsage.FLUSH_VISIBILITY)));
    MemoryRegion clientRegion = await(clientPeer.register(
        ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE), EnumSet.of(MemoryUsage.READ_DST,
            MemoryUsage.WRITE_SRC)));
    byte[] offer = RegionOffer.of(PeerConfig.create(false), serverRegion).toBytes();

    Set<EventLoop> taken = new HashSet<>();
    RpmaServer server = await(onContext(contextOnNewLoop(vx, taken),
        () -> serverPeer.listen(config.port, ip, options, req -> req.accept(offer))));
    RpmaConnection connection = await(onContext(contextOnNewLoop(vx, taken),
        () -> clientPeer.connect(new RpmaConnectOptions()
            .setHost(ip).setPort(config.port)
            .setConnectionOptions(options))));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(
        RegionOffer.fromBytes(connection.remotePrivateData()).regionDescriptor());
    LibraryDriver library = new LibraryDriver(connection, clientRegion, remote);
    ThreadHopConnection threadHop = ThreadHopConnection.connect(clientPeer, clientRegion, ip,
        config.port, options, contextOnNewLoop(vx, taken));
    return new Fixture(vertx, serverPeer, clientPeer, server, serverRegion, library, threadHop);
  }

  /**
   * A new event-loop context on a loop none of {@code taken} runs on (Vert.x hands loops out
   * round robin, and other contexts, e.g. the peers' set-up, take turns too).
   */
  private static ContextInternal contextOnNewLoop(VertxInternal vx, Set<EventLoop> taken) {
    for (int i = 0; i < 4 * EVENT_LOOPS; i++) {
      ContextInternal ctx = vx.createEventLoopContext();
      if (taken.add(ctx.nettyEventLoop())) {
        return ctx;
      }
    }
    throw new IllegalStateException("no free event loop among " + EVENT_LOOPS);
  }

  /**
   * Calls {@code start} on the context: the library makes a connection or server belong to the
   * event-loop context it is called from.
   */
  static <T> Future<T> onContext(ContextInternal context,
      java.util.function.Supplier<Future<T>> start) {
    Promise<T> result = Promise.promise();
    context.runOnContext(v -> start.get().onComplete(result));
    return result.future();
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("no result within " + AWAIT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Connections first (the thread-hop one joins its thread), then server, peers, Vert.x. */
  @Override
  public void close() {
    try {
      await(threadHop.close());
      await(library.close());
      await(server.close());
      await(serverRegion.close());
      await(clientPeer.close());
      await(serverPeer.close());
    } finally {
      await(vertx.close());
    }
  }
}
