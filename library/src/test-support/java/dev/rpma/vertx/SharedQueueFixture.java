package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A server whose accepted connections share one receive queue, and a client peer: the set-up
 * of the shared receive queue's device tests. Each client says who it is in its private data
 * (two bytes); the server maps each accepted connection to that number, so a test can check
 * which connection a message was attributed to against what the message itself says.
 */
final class SharedQueueFixture implements AutoCloseable {

  static final int SLOT = 64;

  final String ip = RdmaTestSupport.deviceIp();
  final Vertx vertx;
  final RpmaPeer serverPeer;
  final RpmaPeer clientPeer;
  final MemoryRegion inbox;
  final MemoryRegion outbox;
  final int port = RdmaTestSupport.nextPort();
  final RpmaSharedReceiveQueue queue;
  final RpmaServer server;
  /** Server-side connection -> the client number it announced. */
  final Map<RpmaConnection, Integer> clientOf = new ConcurrentHashMap<>();
  final List<Future<RpmaConnection>> accepted = new CopyOnWriteArrayList<>();
  private final AtomicInteger clientsConnected = new AtomicInteger();

  SharedQueueFixture(int slots, SharedReceiveQueueOptions options) {
    this(RdmaTestSupport.nativeVertx(), slots, options);
  }

  /** The same on {@code vertx} (closed with the fixture). */
  SharedQueueFixture(Vertx vertx, int slots, SharedReceiveQueueOptions options) {
    this.vertx = vertx;
    serverPeer = await(TestProvider.open(vertx, ip));
    clientPeer = await(TestProvider.open(vertx, ip));
    inbox = await(serverPeer.register(ByteBuffer.allocateDirect(slots * SLOT), MemoryUsage.RECV,
        MemoryUsage.SEND));
    outbox = await(clientPeer.register(ByteBuffer.allocateDirect(slots * SLOT), MemoryUsage.SEND,
        MemoryUsage.RECV));
    queue = await(serverPeer.createSharedReceiveQueue(options));
    // the queue serves its own event loop: listen from its context (the documented way)
    server = await(onContext(queue.context(), () -> serverPeer.listen(port, ip,
        new ConnectionOptions(), queue, req -> {
          byte[] pdata = req.privateData();
          int client = (pdata[0] & 0xff) << 8 | (pdata[1] & 0xff);
          // mapped before the accept's Future completes, so awaiting it is enough to see it
          accepted.add(req.accept(null).map(c -> {
            clientOf.put(c, client);
            return c;
          }));
        })));
  }

  /** Runs {@code call} on {@code context} and gives its Future back. */
  static <T> Future<T> onContext(Context context, Supplier<Future<T>> call) {
    Promise<T> result = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(result));
    return result.future();
  }

  /** Client number {@code n} connects (without a queue of its own). */
  RpmaConnection connectClient(int n) {
    clientsConnected.incrementAndGet();
    return await(clientPeer.connect(new RpmaConnectOptions().setHost(ip).setPort(port)
        .setPrivateData(new byte[] {(byte) (n >> 8), (byte) n})));
  }

  /** Waits until the server has mapped every client that {@link #connectClient} connected. */
  void awaitAccepted() {
    awaitAccepted(clientsConnected.get());
  }

  /**
   * Waits until the server has mapped {@code count} accepted connections to their clients. A
   * client's connect can complete before the server's request handler has returned (the accept
   * reply goes out from inside it), so the handler's Future may not be in the list yet.
   */
  void awaitAccepted(int count) {
    Await.waitUntil("the server mapped " + count + " accepted connections to their clients",
        () -> accepted.size() >= count);
    for (Future<RpmaConnection> f : accepted) {
      await(f);
    }
  }

  /** The bytes of message {@code m} of client {@code n}: its number, then a pattern. */
  static byte[] message(int n, int m) {
    byte[] bytes = new byte[8 + (n * 7 + m * 13) % (SLOT - 8)];
    bytes[0] = (byte) (n >> 8);
    bytes[1] = (byte) n;
    bytes[2] = (byte) m;
    for (int i = 3; i < bytes.length; i++) {
      bytes[i] = (byte) (n * 31 + m * 17 + i);
    }
    return bytes;
  }

  /** Client connection {@code c}, number {@code n}, sends message {@code m} from its slot. */
  Future<Void> send(RpmaConnection c, int n, int m, int slot) {
    byte[] bytes = message(n, m);
    outbox.buffer().put(slot * SLOT, bytes);
    return m % 2 == 0 ? c.send(outbox, (long) slot * SLOT, bytes.length)
        : c.sendWithImm(outbox, (long) slot * SLOT, bytes.length, n << 8 | m);
  }

  byte[] inboxBytes(int offset, int length) {
    byte[] out = new byte[length];
    inbox.buffer().get(offset, out);
    return out;
  }

  @Override
  public void close() {
    await(clientPeer.close());
    await(serverPeer.close());
    await(vertx.close());
  }
}
