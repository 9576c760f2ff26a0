package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything one hostile sequence made, closed or not (closed objects stay, to be used again),
 * and the set-up it starts from: two peers on the device, a region on each, a server on the
 * first and a connection to it from the second, with the server's region offered.
 */
final class HostileWorld {

  /** A region and the peer it belongs to. */
  record Region(RpmaPeer peer, MemoryRegion region) {
  }

  /** A listening (or closed) server and its port. */
  record Server(RpmaServer server, int port) {
  }

  final Vertx vertx;
  final String ip;
  final HostileLedger ledger;
  final HostileCallers callers;
  final HostileValues values;
  final List<String> log = new CopyOnWriteArrayList<>();

  final List<RpmaPeer> peers = new CopyOnWriteArrayList<>();
  final List<Region> regions = new CopyOnWriteArrayList<>();
  final List<Server> servers = new CopyOnWriteArrayList<>();
  final List<RpmaConnection> connections = new CopyOnWriteArrayList<>();
  final List<RemoteMemoryRegion> remotes = new CopyOnWriteArrayList<>();
  final List<RpmaSharedReceiveQueue> queues = new CopyOnWriteArrayList<>();
  final List<RpmaMessageChannel> channels = new CopyOnWriteArrayList<>();

  HostileWorld(Vertx vertx, String ip, HostileLedger ledger, HostileCallers callers,
      HostileValues values) {
    this.vertx = vertx;
    this.ip = ip;
    this.ledger = ledger;
    this.callers = callers;
    this.values = values;
  }

  /** RPMA_HOSTILE_TRACE=1: every call printed as it is made (a crash leaves no report). */
  static final boolean TRACE = "1".equals(System.getenv("RPMA_HOSTILE_TRACE"));

  void note(String step) {
    log.add(step);
    if (TRACE) {
      System.out.println("  " + step);
      System.out.flush();
    }
  }

  /** The starting point, made with ordinary arguments: it must work. */
  void setUp() {
    RpmaPeer server = addPeer(await(RpmaPeer.open(vertx, ip)));
    RpmaPeer client = addPeer(await(RpmaPeer.open(vertx, ip)));
    MemoryRegion serverRegion = await(server.register(ByteBuffer.allocateDirect(Loopback.REGION_SIZE),
        Loopback.SERVER_USAGES));
    regions.add(new Region(server, serverRegion));
    MemoryRegion clientRegion = await(client.register(ByteBuffer.allocateDirect(Loopback.REGION_SIZE),
        Loopback.CLIENT_USAGES));
    regions.add(new Region(client, clientRegion));
    Promise<RpmaConnection> accepted = Promise.promise();
    int port = RdmaTestSupport.nextPort();
    // later requests to this server (a step's connect) are accepted too, and kept
    servers.add(new Server(await(server.listen(port, ip, new ConnectionOptions(),
        req -> ledger.track("an accept of the set-up server", req.accept(
            RegionOffer.of(PeerConfig.create(true), serverRegion).toBytes())).onSuccess(c -> {
              if (!accepted.tryComplete(c)) {
                addConnection("a connection to the set-up server", c);
              }
            }))), port));
    RpmaConnection connection = await(client.connect(port, ip));
    addConnection("set-up client", connection);
    addConnection("set-up server side", await(accepted.future()));
    remotes.add(RegionOffer.fromBytes(connection.remotePrivateData()).applyTo(connection));
    note("set-up: two peers, a region each, a server on port " + port + ", a connection");
  }

  RpmaPeer addPeer(RpmaPeer peer) {
    peers.add(peer);
    return peer;
  }

  /** Adds a connection, its close handler counted: it runs at most once. */
  void addConnection(String what, RpmaConnection connection) {
    connections.add(connection);
    watchCloseHandler(what, connection);
  }

  private void watchCloseHandler(String what, RpmaConnection connection) {
    AtomicInteger calls = new AtomicInteger();
    connection.closeHandler(reason -> {
      if (calls.incrementAndGet() > 1) {
        ledger.violation("the close handler of " + what + " ran more than once");
      }
      if (reason == null) {
        ledger.violation("the close handler of " + what + " got no reason");
      }
    });
  }

  void addChannel(RpmaMessageChannel channel) {
    channel.handler(buffer -> { });
    channel.exceptionHandler(e -> { });
    channels.add(channel);
  }

  <T> T any(List<T> from) {
    return from.isEmpty() ? null : values.pick(from);
  }

  /** A region of any peer, open or closed; null if none. */
  MemoryRegion anyRegion() {
    Region r = any(regions);
    return r == null ? null : r.region();
  }

  /** A region of {@code peer}, if it has one (an offer needs the server's own). */
  MemoryRegion regionOf(RpmaPeer peer) {
    for (Region r : regions) {
      if (r.peer() == peer) {
        return r.region();
      }
    }
    return null;
  }

  int anyPort() {
    Server s = any(servers);
    return s == null ? RdmaTestSupport.nextPort() : s.port();
  }

  /**
   * Closes everything left, from the test's thread, in an order from the leaves up (a peer's
   * close would close what it made, but each object's own close is part of what is tested).
   */
  List<Future<?>> closeAll() {
    List<Future<?>> closes = new ArrayList<>();
    for (RpmaMessageChannel c : channels) {
      closes.add(close("channel", c::close));
    }
    for (RpmaConnection c : connections) {
      closes.add(close("connection", c::close));
    }
    for (Server s : servers) {
      closes.add(close("server", s.server()::close));
    }
    for (RpmaSharedReceiveQueue q : queues) {
      closes.add(close("queue", q::close));
    }
    for (RemoteMemoryRegion r : remotes) {
      try {
        r.close();
      } catch (RuntimeException e) {
        ledger.thrown("remote region close", e);
      }
    }
    for (Region r : regions) {
      closes.add(close("region", r.region()::close));
    }
    for (RpmaPeer p : peers) {
      closes.add(close("peer", p::close));
    }
    return closes;
  }

  private Future<?> close(String what, java.util.function.Supplier<Future<Void>> close) {
    try {
      return ledger.track("final close of a " + what, close.get());
    } catch (RuntimeException e) {
      ledger.thrown("final close of a " + what, e);
      return Future.succeededFuture();
    }
  }
}
