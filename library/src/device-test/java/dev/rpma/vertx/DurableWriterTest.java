package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DurableWriter: the method follows the server's offered configuration; with server persist, a
 * persist is acknowledged only after the server's persister made the written range durable.
 */
@Tag("rdma")
class DurableWriterTest {

  private static final int SIZE = 64 * 1024;
  private static final Set<MemoryUsage> SERVER_USAGES = EnumSet.of(MemoryUsage.WRITE_DST,
      MemoryUsage.READ_SRC, MemoryUsage.FLUSH_PERSISTENT, MemoryUsage.FLUSH_VISIBILITY);

  private Vertx vertx;
  private RpmaPeer serverPeer;
  private RpmaPeer clientPeer;
  private MemoryRegion serverRegion;
  private MemoryRegion local;
  private RpmaConnection client;
  private RemoteMemoryRegion remote;
  private DurableWriter writer;
  /** The server's end of the connection, once accepted. */
  private final Promise<RpmaConnection> serverSide = Promise.promise();

  @BeforeEach
  void open() {
    vertx = RdmaTestSupport.nativeVertx();
    String ip = RdmaTestSupport.deviceIp();
    serverPeer = await(RpmaPeer.open(vertx, ip));
    clientPeer = await(RpmaPeer.open(vertx, ip));
    local = await(clientPeer.register(ByteBuffer.allocateDirect(SIZE), MemoryUsage.WRITE_SRC));
  }

  @AfterEach
  void close() {
    await(clientPeer.close());
    await(serverPeer.close());
    await(vertx.close());
  }

  /** Connects a client to a server offering {@code pmem} and serving with {@code persister}. */
  private void connect(ByteBuffer serverMemory, boolean pmem, RangePersister persister) {
    String ip = RdmaTestSupport.deviceIp();
    serverRegion = await(serverPeer.register(serverMemory, SERVER_USAGES));
    byte[] offer = RegionOffer.of(PeerConfig.create(pmem), serverRegion).toBytes();
    int port = RdmaTestSupport.nextPort();
    await(serverPeer.listen(port, ip, new ConnectionOptions(), request -> {
      if (pmem) {
        request.accept(offer).onComplete(serverSide);
      } else {
        PersistService.accept(serverPeer, request, offer, serverRegion, persister)
            .onComplete(serverSide);
      }
    }));
    client = await(clientPeer.connect(port, ip));
    RegionOffer offered = RegionOffer.fromBytes(client.remotePrivateData());
    remote = offered.applyTo(client);
    writer = await(DurableWriter.open(clientPeer, client, remote, offered.peerConfig()));
  }

  private Future<Void> writeAndPersist(long offset, byte[] bytes) {
    local.buffer().put(0, bytes);
    Future<Void> written = client.write(remote, offset, local, 0, bytes.length);
    return Future.all(written, writer.persist(offset, bytes.length)).mapEmpty();
  }

  @Test
  void aServerOfferingPersistentMemoryGetsAnApmFlush() {
    connect(ByteBuffer.allocateDirect(SIZE), true, null);
    assertEquals(DurabilityMethod.APM_FLUSH, writer.method());
    await(writeAndPersist(128, new byte[] {1, 2, 3, 4}));
    assertEquals(3, serverRegion.buffer().get(130));
  }

  @Test
  void aServerOfferingOrdinaryMemoryPersistsTheRangeAfterTheWriteLanded() {
    ConcurrentLinkedQueue<String> persisted = new ConcurrentLinkedQueue<>();
    ByteBuffer memory = ByteBuffer.allocateDirect(SIZE);
    connect(memory, false, (offset, length) -> {
      byte[] seen = new byte[(int) length];
      memory.get((int) offset, seen);
      persisted.add(offset + "+" + length + "=" + seen[0] + "," + seen[seen.length - 1]);
    });
    assertEquals(DurabilityMethod.SERVER_PERSIST, writer.method());
    byte[] bytes = new byte[100];
    bytes[0] = 7;
    bytes[99] = 9;
    await(writeAndPersist(4000, bytes));
    // the persister saw the written bytes: the request arrived behind the write
    assertEquals(List.of("4000+100=7,9"), List.copyOf(persisted));
  }

  /**
   * Returns once every completion the client's connection had pending when called was
   * delivered: a write posted now completes behind them (one send queue, one CQ, in order), so
   * an acknowledgement made on the client's side alone, at its request's completion, is in.
   */
  private void drainClientCompletions() {
    await(client.write(remote, SIZE - 8, local, 0, 8));
  }

  @Test
  void theAcknowledgementWaitsForThePersisterToReturn() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> {
      reached.countDown();
      release.await();
    });
    Future<Void> durable = writeAndPersist(0, new byte[] {5});
    Await.waitUntil("the persist request reached the server's persister",
        () -> reached.getCount() == 0);
    drainClientCompletions();
    assertFalse(durable.isComplete(), "acknowledged before the server persisted");
    release.countDown();
    await(durable);
  }

  @Test
  void manyMorePersistsThanTheWindowAllComplete() {
    ConcurrentLinkedQueue<long[]> persisted = new ConcurrentLinkedQueue<>();
    connect(ByteBuffer.allocateDirect(SIZE), false,
        (offset, length) -> persisted.add(new long[] {offset, offset + length}));
    List<Future<Void>> all = new ArrayList<>();
    int count = 10 * DurableWriter.WINDOW;
    for (int i = 0; i < count; i++) {
      all.add(writer.persist(i * 64L, 64));
    }
    await(Future.all(all));
    assertEveryRangePersisted(persisted, count);
  }

  /** Each of the {@code count} 64-byte ranges from 0 lies in one range the persister got. */
  private static void assertEveryRangePersisted(ConcurrentLinkedQueue<long[]> persisted,
      int count) {
    for (int i = 0; i < count; i++) {
      long from = i * 64L;
      assertTrue(persisted.stream().anyMatch(r -> r[0] <= from && from + 64 <= r[1]),
          "the range at " + from + " was acknowledged but never persisted");
    }
  }

  @Test
  void persistsWaitingBehindRunningOnesAreJoinedIntoFewerPersists() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ConcurrentLinkedQueue<long[]> persisted = new ConcurrentLinkedQueue<>();
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> {
      reached.countDown();
      release.await();
      persisted.add(new long[] {offset, offset + length});
    });
    Future<Void> first = writer.persist(0, 64);
    List<Future<Void>> waiting = new ArrayList<>();
    for (int i = 1; i < DurableWriter.WINDOW; i++) {
      waiting.add(writer.persist(i * 64L, 64));
    }
    // every request received by the server (a receive completion each; no reply is sent while
    // the persists block): the first few persists block there, the rest wait behind them (the
    // exact batches, timing aside, are PersistCoalescerTest's)
    RpmaConnection server = await(serverSide.future());
    Await.waitUntil("the server received all " + DurableWriter.WINDOW + " persist requests",
        () -> reached.getCount() == 0
            && server.stats().completions() >= DurableWriter.WINDOW);
    drainClientCompletions();
    assertFalse(first.isComplete(), "acknowledged before the server persisted");
    release.countDown();
    await(Future.all(waiting));
    assertTrue(persisted.size() < DurableWriter.WINDOW, persisted.size() + " persists for "
        + DurableWriter.WINDOW + " requests: none were joined");
    assertEveryRangePersisted(persisted, DurableWriter.WINDOW);
  }

  @Test
  void aPersisterThatFailsFailsTheClientsFutureSayingSo() {
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> {
      throw new java.io.IOException("disk gone");
    });
    Throwable e = awaitFailure(writeAndPersist(0, new byte[] {1}));
    assertTrue(e instanceof RpmaException, e.toString());
    assertTrue(e.getMessage().contains("could not persist"), e.getMessage());
  }

  @Test
  void aRangeOutsideTheRegionIsRefusedOnTheCallingThread() {
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> { });
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> writer.persist(SIZE - 10, 11));
    assertTrue(e.getMessage().contains("lie in the region"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> writer.persist(0, 0));
  }

  @Test
  void persistsWaitingWhenTheConnectionClosesFailAndNothingHangs() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> release.await());
    List<Future<Void>> waiting = new ArrayList<>();
    for (int i = 0; i < 2 * DurableWriter.WINDOW; i++) {
      waiting.add(writer.persist(i, 1));
    }
    await(client.close());
    for (Future<Void> f : waiting) {
      awaitFailure(f);
    }
    release.countDown();
    awaitFailure(writer.persist(0, 1));
  }

  @Test
  void aMappedFileOnOrdinaryStorageHoldsWhatWasAcknowledged(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("log");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);
      connect(mapping, false, RangePersister.of(mapping));
      byte[] bytes = "acknowledged as durable".getBytes();
      await(writeAndPersist(8192, bytes));
      byte[] read = new byte[bytes.length];
      channel.read(ByteBuffer.wrap(read), 8192);
      assertArrayEquals(bytes, read);
    }
    assertTrue(Files.size(file) >= SIZE);
  }

  @Test
  void aClosedWriterFailsItsLaterPersistsAndLeavesTheConnectionOpen() {
    connect(ByteBuffer.allocateDirect(SIZE), false, (offset, length) -> { });
    await(writer.close());
    Throwable e = awaitFailure(writer.persist(0, 1));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    // the connection stays usable: closing the writer is not closing the connection
    await(client.write(remote, 0, local, 0, 8));
  }
}
