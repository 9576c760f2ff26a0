package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One server and many clients of it, each client connection made on one of the given
 * event-loop contexts: every connection owns {@link #WINDOW} slots of the server's region,
 * writes them all at once (a window), reads them back and compares byte for byte.
 */
final class ManyConnections implements AutoCloseable {

  static final int WINDOW = 8;
  static final int SLOT = 64;
  /** Connects in flight at once: the set-up calls run one at a time per peer anyway. */
  private static final int CONNECTS_AT_ONCE = 32;

  final RpmaPeer serverPeer;
  final RpmaPeer clientPeer;
  final MemoryRegion serverRegion;
  final MemoryRegion clientRegion;
  final RpmaServer server;
  final List<RpmaConnection> clients = new ArrayList<>();
  final List<RpmaConnection> accepted = new CopyOnWriteArrayList<>();
  final AtomicLong verified = new AtomicLong();
  final AtomicLong mismatches = new AtomicLong();
  private final List<RemoteMemoryRegion> remotes = new ArrayList<>();
  private final int count;
  private final String ip;
  private final int port;

  private ManyConnections(Vertx vertx, int count) {
    String ip = RdmaTestSupport.deviceIp();
    this.count = count;
    serverPeer = await(RpmaPeer.open(vertx, ip));
    clientPeer = await(RpmaPeer.open(vertx, ip));
    serverRegion = await(serverPeer.register(ByteBuffer.allocateDirect(count * WINDOW * SLOT),
        Loopback.SERVER_USAGES));
    // the first half is what is written, the second what is read back
    clientRegion = await(clientPeer.register(
        ByteBuffer.allocateDirect(2 * count * WINDOW * SLOT), Loopback.CLIENT_USAGES));
    byte[] offer = RegionOffer.of(PeerConfig.create(false), serverRegion).toBytes();
    int port = RdmaTestSupport.nextPort();
    server = await(serverPeer.listen(port, ip, new ConnectionOptions(),
        req -> req.accept(offer).onSuccess(accepted::add)));
    this.port = port;
    this.ip = ip;
  }

  /** {@code count} connections, connection i made on {@code contexts[i % contexts.size()]}. */
  static ManyConnections open(Vertx vertx, int count, List<Context> contexts) {
    ManyConnections m = new ManyConnections(vertx, count);
    for (int first = 0; first < count; first += CONNECTS_AT_ONCE) {
      List<Future<RpmaConnection>> batch = new ArrayList<>();
      for (int i = first; i < Math.min(count, first + CONNECTS_AT_ONCE); i++) {
        Promise<RpmaConnection> made = Promise.promise();
        contexts.get(i % contexts.size()).runOnContext(v -> m.clientPeer.connect(m.port, m.ip)
            .onComplete(made));
        batch.add(made.future());
      }
      await(Future.all(batch));
      for (Future<RpmaConnection> f : batch) {
        RpmaConnection c = f.result();
        m.clients.add(c);
        m.remotes.add(RemoteMemoryRegion.fromDescriptor(
            RegionOffer.fromBytes(c.remotePrivateData()).regionDescriptor()));
      }
    }
    return m;
  }

  /** One round on every connection but those in {@code skip}; completes when all are checked. */
  Future<Void> roundOnAll(int round, int... skip) {
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (Arrays.stream(skip).noneMatch(Integer.valueOf(i)::equals)) {
        all.add(roundOn(i, round));
      }
    }
    return Future.all(all).mapEmpty();
  }

  /**
   * Connection i's round, on its context: a window of writes of its slots, then a read of each
   * back, compared with what was written; fails if an operation fails.
   */
  Future<Void> roundOn(int i, int round) {
    RpmaConnection c = clients.get(i);
    Promise<Void> done = Promise.promise();
    c.context().runOnContext(v -> {
      List<Future<Void>> writes = new ArrayList<>();
      for (int s = 0; s < WINDOW; s++) {
        int offset = (i * WINDOW + s) * SLOT;
        clientRegion.buffer().put(offset, pattern(i, s, round));
        writes.add(c.write(remotes.get(i), offset, clientRegion, offset, SLOT));
      }
      Future.all(writes).compose(w -> {
        List<Future<Void>> reads = new ArrayList<>();
        for (int s = 0; s < WINDOW; s++) {
          int offset = (i * WINDOW + s) * SLOT;
          reads.add(c.read(clientRegion, readBack(offset), remotes.get(i), offset, SLOT));
        }
        return Future.all(reads);
      }).onSuccess(r -> {
        for (int s = 0; s < WINDOW; s++) {
          byte[] back = new byte[SLOT];
          clientRegion.buffer().get(readBack((i * WINDOW + s) * SLOT), back);
          count(Arrays.equals(pattern(i, s, round), back));
        }
      }).<Void>mapEmpty().onComplete(done);
    });
    return done.future();
  }

  /** Checks the server's memory itself: each slot holds the pattern of {@code round}. */
  void checkServerMemory(int round, int... skip) {
    for (int i = 0; i < count; i++) {
      if (Arrays.stream(skip).noneMatch(Integer.valueOf(i)::equals)) {
        for (int s = 0; s < WINDOW; s++) {
          byte[] there = new byte[SLOT];
          serverRegion.buffer().get((i * WINDOW + s) * SLOT, there);
          count(Arrays.equals(pattern(i, s, round), there));
        }
      }
    }
  }

  private void count(boolean same) {
    (same ? verified : mismatches).incrementAndGet();
  }

  private int readBack(int offset) {
    return count * WINDOW * SLOT + offset;
  }

  /** Distinct for every connection, slot and round. */
  static byte[] pattern(int connection, int slot, int round) {
    byte[] b = new byte[SLOT];
    for (int k = 0; k < SLOT; k++) {
      b[k] = (byte) (connection * 31 + slot * 7 + round * 13 + k);
    }
    b[0] = (byte) connection;
    b[1] = (byte) (connection >> 8);
    b[2] = (byte) slot;
    b[3] = (byte) round;
    return b;
  }

  @Override
  public void close() {
    List<Future<Void>> closing = new ArrayList<>();
    for (RpmaConnection c : clients) {
      closing.add(c.close());
    }
    await(Future.join(closing));
    await(Future.join(remotes.stream().map(RemoteMemoryRegion::close).toList()));
    await(server.close());
    await(clientPeer.close());
    await(serverPeer.close());
  }
}
