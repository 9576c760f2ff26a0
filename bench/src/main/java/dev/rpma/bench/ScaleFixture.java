package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import dev.rpma.vertx.RpmaSharedReceiveQueue;
import dev.rpma.vertx.SharedReceiveQueueOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The scale benchmark's two ends, in the bench's JVM: a server on one event loop, and up to
 * the largest count of {@link BenchConfig#SCALE_CONNECTIONS} client connections to it, all on
 * ONE other event loop (the case the library is for: many connections, one loop). Every
 * server-side connection keeps {@link #RECEIVES_POSTED} receives posted, re-posting each as it
 * completes. A window's worth is not enough: on one CPU the client's loop keeps posting as its
 * sends complete (Soft-RoCE delivers them in the client's own system calls) until it blocks,
 * while the server's loop, woken, waits for the CPU; a send that then finds no receive gets a
 * receiver-not-ready NAK and waits the RNR timer, 655.36 ms (the IB CM sets min_rnr_timer 0 on
 * every RC queue pair made through rdma_cm; librpma offers no way to change it). Issue 27's
 * 28 ms per message was that: twice a window posted, in counted time 24 messages per 655 ms
 * (SendWaitProbe: 16 posted, 35 sends/s and 3 RNR NAKs in 2 s; 64 posted, 16,982/s and none).
 * Each run records the device's RNR NAKs, so a wait like it shows as a count.
 * With {@code sharedQueue} the server's connections are attached to ONE shared receive queue
 * instead (issue 13), which keeps twice the largest count's windows posted the same way. While connecting, the fds,
 * the resident memory outside the heap and the pinned memory are recorded at each count.
 */
final class ScaleFixture implements AutoCloseable {

  /**
   * The server-side connection's whole receive queue (sixteen windows), as a server that must
   * not make its senders wait keeps it. It does not cure the one-connection send run, which
   * in 8 rounds of 10 completes exactly 136 (128 + the window of 8) and then waits the
   * receiver-not-ready timer: the guest's scheduler, not the library. Both loops wake from
   * idle at the run's start with the same sleeper credit, so the server's loop, woken by the
   * first receive, does not preempt the client's, which sends through all 128 in ~2.5 ms, less
   * than its time slice (SendWaitProbe's schedstat and ftrace; bench/ANALYSIS.md, session 15).
   */
  static final int RECEIVES_POSTED = BenchConfig.QUEUE_SIZE;
  /** Per client connection, on the shared receive queue (issue 13's setting, unchanged). */
  private static final int SHARED_RECEIVES_PER_CONNECTION = 2 * BenchConfig.SCALE_WINDOW;

  final ContextInternal clientLoop;
  final ContextInternal serverLoop;
  final List<RpmaConnection> clients = new ArrayList<>();
  final List<RemoteMemoryRegion> remotes = new ArrayList<>();
  final MemoryRegion clientRegion;
  private final List<RpmaConnection> serverSides = new CopyOnWriteArrayList<>();
  private final MemoryRegion serverRegion;
  private final RpmaPeer serverPeer;
  private final RpmaPeer clientPeer;
  private final RpmaServer server;
  private final RpmaSharedReceiveQueue queue;
  /** Receives each server-side connection keeps posted (per-connection receive queues). */
  private final int receivesPosted;

  private ScaleFixture(Vertx vertx, String ip, int port, List<ContextInternal> loops,
      int sharedQueueReceives, int receivesPosted) {
    this.receivesPosted = receivesPosted;
    clientLoop = loops.get(0);
    serverLoop = loops.get(1);
    serverPeer = Fixture.await(RpmaPeer.open(vertx, ip));
    clientPeer = Fixture.await(RpmaPeer.open(vertx, ip));
    serverRegion = Fixture.await(serverPeer.register(
        ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE), EnumSet.of(MemoryUsage.WRITE_DST,
            MemoryUsage.RECV)));
    clientRegion = Fixture.await(clientPeer.register(
        ByteBuffer.allocateDirect(BenchConfig.REGION_SIZE), EnumSet.of(MemoryUsage.WRITE_SRC,
            MemoryUsage.SEND)));
    byte[] offer = RegionOffer.of(PeerConfig.create(false), serverRegion).toBytes();
    Promise<RpmaServer> listening = Promise.promise();
    if (sharedQueueReceives == 0) {
      queue = null;
      serverLoop.runOnContext(v -> serverPeer.listen(port, ip, options(),
          req -> keepReceiving(req, offer)).onComplete(listening));
    } else {
      Promise<RpmaSharedReceiveQueue> made = Promise.promise();
      serverLoop.runOnContext(v -> serverPeer.createSharedReceiveQueue(
          new SharedReceiveQueueOptions().setRqSize(sharedQueueReceives)
              .setRcqSize(sharedQueueReceives)).onComplete(made));
      queue = Fixture.await(made.future());
      serverLoop.runOnContext(v -> {
        for (int slot = 0; slot < sharedQueueReceives; slot++) {
          receiveShared(slot % (BenchConfig.REGION_SIZE / BenchConfig.THROUGHPUT_SIZE));
        }
        serverPeer.listen(port, ip, options(), queue, req -> req.accept(offer))
            .onComplete(listening);
      });
    }
    server = Fixture.await(listening.future());
  }

  /**
   * The library's options for the benchmark, without keepalive: idle connections (those a
   * scenario with fewer connections leaves out) must not probe their peers during a run.
   */
  static ConnectionOptions options() {
    return BenchConfig.connectionOptions().setRqSize(BenchConfig.QUEUE_SIZE).setKeepAliveMs(0);
  }

  /**
   * Connects the largest count, one at a time; at each count of {@code counts}, a
   * "scale-resources" line with what the connections took since the first (both ends: the
   * server side is in this JVM too).
   */
  static ScaleFixture open(Vertx vertx, String ip, int port, List<Integer> counts,
      Report report, boolean sharedQueue) {
    return open(vertx, ip, port, counts, report, sharedQueue, RECEIVES_POSTED);
  }

  /** As above, each server-side connection keeping {@code receivesPosted} receives posted. */
  static ScaleFixture open(Vertx vertx, String ip, int port, List<Integer> counts,
      Report report, boolean sharedQueue, int receivesPosted) {
    List<ContextInternal> loops = twoLoops((VertxInternal) vertx);
    int max = counts.stream().mapToInt(Integer::intValue).max().orElse(1);
    ScaleFixture f = new ScaleFixture(vertx, ip, port, loops,
        sharedQueue ? SHARED_RECEIVES_PER_CONNECTION * max : 0, receivesPosted);
    Resources before = Resources.now();
    while (f.clients.size() < max) {
      Promise<RpmaConnection> made = Promise.promise();
      f.clientLoop.runOnContext(v -> f.clientPeer.connect(new RpmaConnectOptions()
          .setHost(ip).setPort(port)
          .setConnectionOptions(options()))
          .onComplete(made));
      RpmaConnection c = Fixture.await(made.future());
      f.clients.add(c);
      f.remotes.add(RemoteMemoryRegion.fromDescriptor(
          RegionOffer.fromBytes(c.remotePrivateData()).regionDescriptor()));
      if (!sharedQueue && counts.contains(f.clients.size())) {
        Resources now = Resources.now();
        report.resources(f.clients.size(), now.minus(before));
      }
    }
    return f;
  }

  /** Two event-loop contexts on distinct loops: the clients' and the server's. */
  private static List<ContextInternal> twoLoops(VertxInternal vx) {
    List<ContextInternal> loops = new ArrayList<>();
    for (int i = 0; i < 16 && loops.size() < 2; i++) {
      ContextInternal c = vx.createEventLoopContext();
      if (loops.isEmpty() || loops.get(0).nettyEventLoop() != c.nettyEventLoop()) {
        loops.add(c);
      }
    }
    if (loops.size() < 2) {
      throw new IllegalStateException("the scale benchmark needs two event loops");
    }
    return loops;
  }

  /**
   * On the server's loop: a window of receives posted on the request, before the accept (a
   * client sends as soon as it is connected; posted after the accept, its first sends could find
   * none and wait the device's receiver-not-ready timer, 655 ms: one such wait was in the
   * 1-connection row), then each posted again on the connection when it completes.
   */
  private void keepReceiving(RpmaConnectionRequest req, byte[] offer) {
    List<Future<Received>> preposted = new ArrayList<>(receivesPosted);
    for (int slot = 0; slot < receivesPosted; slot++) {
      preposted.add(req.recv(serverRegion, (long) slot * BenchConfig.THROUGHPUT_SIZE,
          BenchConfig.THROUGHPUT_SIZE));
    }
    Future<RpmaConnection> accepted = req.accept(offer);
    accepted.onSuccess(serverSides::add);
    for (int slot = 0; slot < receivesPosted; slot++) {
      int s = slot;
      preposted.get(slot).onSuccess(r -> accepted.onSuccess(serverSide -> receive(serverSide, s)));
    }
  }

  private void receive(RpmaConnection serverSide, int slot) {
    // all receives share one buffer: the bench sends and never reads the bytes
    serverSide.recv(serverRegion, (long) slot * BenchConfig.THROUGHPUT_SIZE,
        BenchConfig.THROUGHPUT_SIZE).onSuccess(r -> receive(serverSide, slot));
  }

  /** On the server's loop: a receive of the shared queue, posted again when it completes. */
  private void receiveShared(int slot) {
    queue.recv(serverRegion, (long) slot * BenchConfig.THROUGHPUT_SIZE,
        BenchConfig.THROUGHPUT_SIZE).onSuccess(r -> receiveShared(slot));
  }

  /**
   * Receiver-not-ready NAKs the device has received so far (rxe: hw counter rcvd_rnr_err of
   * port 1), -1 if it shows none: each is a send that found no receive posted and waits the
   * RNR timer (rdma_cm's default, 655.36 ms) before it is sent again.
   */
  long rnrNaks() {
    Path counter = Path.of("/sys/class/infiniband", clientPeer.deviceName(),
        "ports/1/hw_counters/rcvd_rnr_err");
    try {
      return Files.isReadable(counter) ? Long.parseLong(Files.readString(counter).trim()) : -1;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + counter, e);
    }
  }

  /** The server side of client connection {@code i} (accepted in the clients' order). */
  RpmaConnection serverSide(int i) {
    return serverSides.get(i);
  }

  /** The server loop's thread, for its CPU time (it does the receiving side's work). */
  Thread serverLoopThread() {
    Promise<Thread> t = Promise.promise();
    serverLoop.runOnContext(v -> t.complete(Thread.currentThread()));
    return Fixture.await(t.future());
  }

  @Override
  public void close() {
    List<Future<Void>> closing = new ArrayList<>();
    for (RpmaConnection c : clients) {
      closing.add(c.close());
    }
    Fixture.await(Future.join(closing));
    Fixture.await(Future.join(remotes.stream().map(RemoteMemoryRegion::close).toList()));
    Fixture.await(server.close());
    if (queue != null) {
      Fixture.await(queue.close());
    }
    Fixture.await(clientPeer.close());
    Fixture.await(serverPeer.close());
  }

  /** What the process holds: RDMA fds, resident memory outside the heap, pinned memory. */
  record Resources(long rdmaFds, long nonHeapKib, long pinnedKib) {

    static Resources now() {
      System.gc(); // a heap that just grew must not pass for native memory
      return new Resources(ProcFs.rdmaFds(), ProcFs.residentKib() - ProcFs.committedHeapKib(),
          ProcFs.statusKib("VmPin:"));
    }

    Resources minus(Resources before) {
      return new Resources(rdmaFds - before.rdmaFds, nonHeapKib - before.nonHeapKib,
          pinnedKib - before.pinnedKib);
    }

    Map<String, Long> fields() {
      return Map.of("rdma_fds", rdmaFds, "native_kib", nonHeapKib, "pinned_kib", pinnedKib);
    }
  }
}
