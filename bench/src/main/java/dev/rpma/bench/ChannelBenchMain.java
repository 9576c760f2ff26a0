package dev.rpma.bench;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.MessageChannelOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code ./dev bench}'s message channel part: 64 B round trips (one in flight) and one-way
 * messages/s (a window of 16) through {@code RpmaMessageChannel} and through send/recv posted
 * by hand ({@link HandPostedPair}), both pairs in this JVM, each end on its own context. The
 * two paths run back to back in every round, their order alternating. One JSON line per path,
 * measurement and round ({@code kind} channel-latency or channel-throughput), with the
 * device's rnr counter delta; bench/report_channel.py makes the table.
 */
public final class ChannelBenchMain {

  static final int SIZE = 64;
  static final int WINDOW = 16;

  private ChannelBenchMain() {
  }

  public static void main(String[] args) {
    int status = 1;
    try {
      run(BenchConfig.parse(args));
      status = 0;
      System.err.println("channel bench: done");
    } catch (Throwable t) {
      System.err.print("channel bench: failed: ");
      t.printStackTrace();
    } finally {
      System.exit(status);
    }
  }

  private static void run(BenchConfig config) throws IOException, InterruptedException {
    Vertx vertx = Fixture.nativeVertx();
    try (Peers peers = new Peers(vertx, config.address);
        PrintWriter out = new PrintWriter(new FileWriter(config.out, true), true)) {
      List<MessagePath> paths = peers.paths(config);
      RpmaPeer serverPeer = peers.server;
      // unmeasured, as long as the measured runs, until the JIT is quiet: one short pass left
      // compilations inside the measured runs (the channel's targets moved 6-9 % between two
      // counted runs), and so did quiet rounds shorter than the runs (jit 54-280 ms inside
      // them: methods still short of C2's thresholds)
      WarmUp.untilJitQuiet(config, () -> {
        for (MessagePath p : paths) {
          Fixture.await(MessageRuns.roundTrips(p, config.latencyOps));
          Fixture.await(MessageRuns.oneWay(p, WINDOW, config.throughputNanos()));
        }
      });
      for (int round = 1; round <= config.rounds; round++) {
        for (int i = 0; i < paths.size(); i++) {
          MessagePath p = paths.get((i + round) % paths.size());
          Jit.settle();
          long rnr = rnr(serverPeer);
          JvmActivity before = JvmActivity.now();
          MessageRuns.Result lat = Fixture.await(MessageRuns.roundTrips(p, config.latencyOps));
          long jitLat = JvmActivity.now().since(before).jitMillis();
          long rnrLat = rnr(serverPeer) - rnr;
          Jit.settle();
          before = JvmActivity.now();
          MessageRuns.Result tput = Fixture.await(
              MessageRuns.oneWay(p, WINDOW, config.throughputNanos()));
          long jitTput = JvmActivity.now().since(before).jitMillis();
          long rnrTput = rnr(serverPeer) - rnr - rnrLat;
          line(out, p.name(), round, "channel-latency", 1, lat, rnrLat, jitLat);
          line(out, p.name(), round, "channel-throughput", WINDOW, tput, rnrTput, jitTput);
        }
      }
      for (MessagePath p : paths) {
        Fixture.await(p.close());
      }
    } finally {
      Fixture.await(vertx.close());
    }
  }

  /** Both ends' peers and the servers of the two message paths, closed together. */
  static final class Peers implements AutoCloseable {
    final RpmaPeer server;
    final RpmaPeer client;
    private final List<RpmaServer> servers = new ArrayList<>();

    Peers(Vertx vertx, String ip) {
      server = Fixture.await(RpmaPeer.open(vertx, ip));
      client = Fixture.await(RpmaPeer.open(vertx, ip));
    }

    /** The message channel and the hand-posted pair, on config.port + 50 and + 51. */
    List<MessagePath> paths(BenchConfig config) {
      return List.of(channel(config, server, client, servers),
          handPosted(config, server, client, servers));
    }

    @Override
    public void close() {
      servers.forEach(s -> Fixture.await(s.close()));
      Fixture.await(client.close());
      Fixture.await(server.close());
    }
  }

  static MessagePath channel(BenchConfig config, RpmaPeer serverPeer,
      RpmaPeer clientPeer, List<RpmaServer> servers) {
    ConnectionOptions options = BenchConfig.connectionOptions();
    MessageChannelOptions channel = new MessageChannelOptions().setReceiveBuffers(
        HandPostedPair.RECEIVES).setReceiveBufferSize(SIZE).setSendBuffers(WINDOW);
    Promise<RpmaMessageChannel> accepted = Promise.promise();
    int port = config.port + 50;
    RpmaServer server = Fixture.await(serverPeer.listen(port, config.address, options,
        req -> RpmaMessageChannel.accept(req, channel).onComplete(accepted)));
    RpmaMessageChannel client = Fixture.await(
        RpmaMessageChannel.connect(clientPeer, port, config.address, options, channel));
    ChannelPath path = new ChannelPath(client, Fixture.await(accepted.future()), SIZE);
    path.start();
    servers.add(server); // closing it would close the connection it accepted
    return path;
  }

  static MessagePath handPosted(BenchConfig config, RpmaPeer serverPeer,
      RpmaPeer clientPeer, List<RpmaServer> servers) {
    ConnectionOptions options = BenchConfig.connectionOptions();
    MemoryRegion serverRegion = Fixture.await(serverPeer.register(
        ByteBuffer.allocateDirect((HandPostedPair.RECEIVES + 1) * SIZE), MemoryUsage.RECV,
        MemoryUsage.SEND));
    MemoryRegion clientRegion = Fixture.await(clientPeer.register(
        ByteBuffer.allocateDirect(2 * SIZE), MemoryUsage.RECV, MemoryUsage.SEND));
    Promise<RpmaConnection> accepted = Promise.promise();
    int port = config.port + 51;
    RpmaServer server = Fixture.await(serverPeer.listen(port, config.address, options,
        req -> req.accept(null).onComplete(accepted)));
    RpmaConnection client = Fixture.await(clientPeer.connect(new RpmaConnectOptions()
        .setHost(config.address).setPort(port)
        .setConnectionOptions(options)));
    RpmaConnection serverSide = Fixture.await(accepted.future());
    HandPostedPair pair = new HandPostedPair(client, clientRegion, serverSide, serverRegion,
        SIZE);
    Promise<Void> posted = Promise.promise();
    serverSide.context().runOnContext(v -> {
      pair.start();
      posted.complete();
    });
    Fixture.await(posted.future());
    servers.add(server);
    return pair;
  }

  /** The device's receiver-not-ready counters summed (rxe: rcvd_rnr_err, send_rnr_err). */
  private static long rnr(RpmaPeer peer) {
    Path dir = Path.of("/sys/class/infiniband", peer.deviceName(), "ports/1/hw_counters");
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().contains("rnr")).mapToLong(f -> {
        try {
          return Long.parseLong(Files.readString(f).trim());
        } catch (IOException | NumberFormatException e) {
          return 0;
        }
      }).sum();
    } catch (IOException e) {
      return -1;
    }
  }

  private static void line(PrintWriter out, String impl, int round, String kind, int window,
      MessageRuns.Result r, long rnr, long jitMs) {
    Samples s = r.samples();
    out.println(String.format(Locale.ROOT, "{\"impl\":\"%s\",\"round\":%d,\"kind\":\"%s\","
            + "\"size\":%d,\"window\":%d,\"messages\":%d,\"elapsed_s\":%.6f,\"median_ns\":%d,"
            + "\"p99_ns\":%d,\"msgs_per_s\":%.1f,\"rnr\":%d,\"jit_ms\":%d}", impl, round, kind,
        SIZE, window, r.messages(), r.elapsedNanos() / 1e9, s.percentile(0.5),
        s.percentile(0.99), r.perSecond(), rnr, jitMs));
    System.err.printf(Locale.ROOT, "channel bench: %-11s %-18s round %d: median %8.1f us"
            + "  p99 %8.1f us  %9.0f msgs/s  rnr %d  jit %d ms%n", impl, kind, round,
        s.percentile(0.5) / 1e3, s.percentile(0.99) / 1e3, r.perSecond(), rnr, jitMs);
  }
}
