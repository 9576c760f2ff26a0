package dev.rpma.vertx;

import dev.rpma.vertx.HostileCallers.Caller;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The steps of a hostile sequence, one picked at random each time: set-up calls (open, register,
 * listen, connect, queues, channels) with hostile arguments, operations on any connection with
 * any region (another peer's, a closed one) at and past every limit, closes of anything from
 * any thread, and descriptors that lie.
 */
final class HostileSteps {

  /** How a server built by a step answers its requests (picked when it starts listening). */
  private enum Answer { OFFER, HOSTILE_DATA, REJECT, RECV_THEN_ACCEPT, CLOSE_SERVER,
    ACCEPT_THEN_CLOSE, CHANNEL, IGNORE }

  private final HostileWorld world;
  private final HostileValues values;
  private final HostileCalls calls;

  HostileSteps(HostileWorld world) {
    this.world = world;
    this.values = world.values;
    this.calls = new HostileCalls(world);
  }

  void step() {
    int kind = values.below(100);
    if (kind < 40) {
      operation();
    } else if (kind < 50) {
      connect();
    } else if (kind < 56) {
      listen();
    } else if (kind < 60) {
      openPeer();
    } else if (kind < 65) {
      register();
    } else if (kind < 72) {
      sharedQueue();
    } else if (kind < 80) {
      channel();
    } else if (kind < 93) {
      close();
    } else {
      descriptor();
    }
  }

  private void operation() {
    RpmaConnection c = world.any(world.connections);
    MemoryRegion local = world.anyRegion();
    RemoteMemoryRegion remote = world.any(world.remotes);
    if (c == null || local == null) {
      return;
    }
    long size = local.size();
    long offset = values.offset(size);
    long length = values.length(size);
    long remoteOffset = remote == null ? 0 : values.offset(remote.size());
    Caller caller = calls.caller();
    String args = " at " + offset + " length " + length;
    switch (values.below(10)) {
      case 0 -> calls.call("read" + args + " remote at " + remoteOffset, caller,
          () -> c.read(local, offset, remote, remoteOffset, length));
      case 1 -> calls.call("write" + args + " remote at " + remoteOffset, caller,
          () -> c.write(remote, remoteOffset, local, offset, length));
      case 2 -> calls.call("writeWithImm" + args, caller,
          () -> c.writeWithImm(remote, remoteOffset, local, offset, length, 7));
      case 3 -> calls.call("atomicWrite remote at " + remoteOffset, caller,
          () -> c.atomicWrite(remote, remoteOffset, 42L));
      case 4 -> {
        FlushType type = values.pick(List.of(FlushType.values()));
        calls.call("flush " + type + " remote at " + remoteOffset + " length " + length, caller,
            () -> c.flush(remote, remoteOffset, length, type));
      }
      case 5, 6 -> calls.call("send" + args, caller, () -> c.send(local, offset, length));
      case 7 -> calls.call("sendWithImm" + args, caller,
          () -> c.sendWithImm(local, offset, length, -1));
      case 8 -> calls.call("recv" + args, caller, () -> c.recv(local, offset, length));
      default -> {
        byte[] config = values.chance(50) ? null : values.descriptor(new byte[] {1, 1});
        calls.run("applyRemotePeerConfig of " + (config == null ? "null" : config.length
            + " bytes"), caller, () -> c.applyRemotePeerConfig(
                config == null ? null : PeerConfig.fromDescriptor(config)));
      }
    }
  }

  private void connect() {
    RpmaPeer peer = world.any(world.peers);
    String address = values.address();
    int port = values.port(world.anyPort());
    byte[] data = values.privateData(RpmaConnection.MAX_CONNECT_PRIVATE_DATA);
    RpmaSharedReceiveQueue queue = values.chance(25) ? world.any(world.queues) : null;
    Caller caller = calls.caller();
    String what = "connect to " + address + ":" + port + " with "
        + (data == null ? "no" : data.length + " bytes of") + " private data"
        + (queue == null ? "" : " and a shared queue");
    Future<RpmaConnection> connected;
    try {
      ConnectionOptions options = values.connectionOptions();
      connected = calls.call(what, caller,
          () -> peer.connect(new RpmaConnectOptions().setHost(address).setPort(port)
              .setConnectionOptions(options).setPrivateData(data).setSharedReceiveQueue(queue)));
    } catch (IllegalArgumentException e) {
      world.note(what + ": options refused");
      world.ledger.thrown("connection options", e);
      return;
    }
    if (connected != null) {
      connected.onSuccess(c -> world.addConnection(what, c));
    }
  }

  private void listen() {
    RpmaPeer peer = world.any(world.peers);
    String address = values.address();
    int port = values.port(world.anyPort());
    Answer answer = values.pick(List.of(Answer.values()));
    byte[] data = values.privateData(RpmaConnection.MAX_ACCEPT_PRIVATE_DATA);
    long recvLength = values.length(4096);
    MessageChannelOptions channelOptions = channelOptionsOrNull();
    String what = "listen on " + address + ":" + port + ", answering " + answer;
    Handler<RpmaConnectionRequest> handler =
        req -> answer(what, answer, req, peer, data, recvLength, channelOptions);
    try {
      ConnectionOptions options = values.connectionOptions();
      Future<RpmaServer> listening = calls.call(what, calls.caller(),
          () -> peer.listen(port, address, options, handler));
      if (listening != null) {
        listening.onSuccess(s -> world.servers.add(new HostileWorld.Server(s, port)));
      }
    } catch (IllegalArgumentException e) {
      world.ledger.thrown("connection options", e);
    }
  }

  /** The server's answer, on its context: every Future it makes tracked. */
  private void answer(String server, Answer answer, RpmaConnectionRequest req, RpmaPeer peer,
      byte[] data, long recvLength, MessageChannelOptions channelOptions) {
    String what = "the answer " + answer + " of " + server;
    switch (answer) {
      case OFFER, HOSTILE_DATA, RECV_THEN_ACCEPT, ACCEPT_THEN_CLOSE -> {
        if (answer == Answer.RECV_THEN_ACCEPT) {
          MemoryRegion dst = world.anyRegion();
          trackOrCheck(what + ": recv", () -> req.recv(dst, 0, recvLength));
        }
        MemoryRegion own = world.regionOf(peer);
        byte[] reply = answer == Answer.OFFER && own != null
            ? RegionOffer.of(PeerConfig.create(false), own).toBytes() : data;
        Future<RpmaConnection> accepted = trackOrCheck(what + ": accept", () -> req.accept(reply));
        if (accepted != null) {
          accepted.onSuccess(c -> {
            world.addConnection(what, c);
            if (answer == Answer.ACCEPT_THEN_CLOSE) {
              trackOrCheck(what + ": close in the accept's callback", c::close);
            }
          });
        }
      }
      case REJECT -> req.reject();
      case CLOSE_SERVER -> {
        for (HostileWorld.Server s : world.servers) {
          trackOrCheck(what + ": close a server", s.server()::close);
        }
      }
      case CHANNEL -> {
        if (channelOptions != null && RpmaMessageChannel.isChannelRequest(req)) {
          Future<RpmaMessageChannel> ch = trackOrCheck(what + ": channel accept",
              () -> RpmaMessageChannel.accept(req, channelOptions));
          if (ch != null) {
            ch.onSuccess(world::addChannel);
          }
        } else {
          req.reject();
        }
      }
      default -> { } // IGNORE: never answered; the client's connect times out
    }
  }

  private <T> Future<T> trackOrCheck(String what, java.util.function.Supplier<Future<T>> call) {
    try {
      return world.ledger.track(what, call.get());
    } catch (RuntimeException e) {
      world.ledger.thrown(what, e);
      return null;
    }
  }

  private MessageChannelOptions channelOptionsOrNull() {
    try {
      return values.channelOptions();
    } catch (IllegalArgumentException e) {
      world.ledger.thrown("channel options", e);
      return null;
    }
  }

  private void openPeer() {
    String address = values.address();
    Future<RpmaPeer> opened = calls.call("open a peer on " + address, calls.caller(),
        () -> RpmaPeer.open(world.vertx, address));
    if (opened != null) {
      opened.onSuccess(world::addPeer);
    }
  }

  private void register() {
    RpmaPeer peer = world.any(world.peers);
    var buffer = values.buffer();
    var usages = values.usages();
    Future<MemoryRegion> registered = calls.call("register " + buffer + " for " + usages,
        calls.caller(), () -> peer.register(buffer, usages));
    if (registered != null) {
      registered.onSuccess(r -> world.regions.add(new HostileWorld.Region(peer, r)));
    }
  }

  private void sharedQueue() {
    RpmaSharedReceiveQueue queue = world.any(world.queues);
    if (queue != null && values.chance(60)) {
      MemoryRegion dst = world.anyRegion();
      long offset = values.offset(dst.size());
      long length = values.length(dst.size());
      calls.call("shared queue recv at " + offset + " length " + length, calls.caller(),
          () -> queue.recv(dst, offset, length));
      return;
    }
    RpmaPeer peer = world.any(world.peers);
    try {
      SharedReceiveQueueOptions options = values.queueOptions();
      Future<RpmaSharedReceiveQueue> made = calls.call("create a shared queue " + options,
          calls.caller(), () -> peer.createSharedReceiveQueue(options));
      if (made != null) {
        made.onSuccess(world.queues::add);
      }
    } catch (IllegalArgumentException e) {
      world.ledger.thrown("shared queue options", e);
    }
  }

  private void channel() {
    RpmaMessageChannel ch = world.any(world.channels);
    if (ch == null || values.chance(30)) {
      RpmaPeer peer = world.any(world.peers);
      int port = world.anyPort();
      MessageChannelOptions options = channelOptionsOrNull();
      if (options == null) {
        return;
      }
      Future<RpmaMessageChannel> connected = calls.call("channel connect to port " + port,
          calls.caller(), () -> RpmaMessageChannel.connect(peer, port, world.ip,
              new ConnectionOptions().setConnectTimeoutMs(3000), options));
      if (connected != null) {
        connected.onSuccess(world::addChannel);
      }
      return;
    }
    Caller caller = calls.caller();
    switch (values.below(5)) {
      case 0, 1 -> {
        int size = values.pick(List.of(0, 1, ch.maxMessageSize(), ch.maxMessageSize() + 1,
            1 << 20));
        calls.call("channel write of " + size + " bytes", caller,
            () -> ch.write(Buffer.buffer(new byte[size])));
      }
      case 2 -> calls.call("channel end", caller, ch::end);
      case 3 -> {
        int max = values.pick(List.of(-1, 0, 1, Integer.MAX_VALUE));
        calls.run("channel setWriteQueueMaxSize(" + max + ")", caller,
            () -> ch.setWriteQueueMaxSize(max));
      }
      default -> {
        long amount = values.pick(List.of(-1L, 0L, 1L, Long.MAX_VALUE));
        calls.run("channel pause, fetch(" + amount + "), resume", caller,
            () -> ch.pause().fetch(amount).resume());
      }
    }
  }

  private void close() {
    HostileCalls.Close close = calls.pickClose();
    if (close != null) {
      calls.call("close " + close.what(), calls.caller(), close.call());
      if (values.chance(30)) {
        calls.call("close " + close.what() + " again", calls.caller(), close.call());
      }
    }
  }

  private void descriptor() {
    MemoryRegion region = world.anyRegion();
    byte[] real = new byte[0];
    try {
      real = region.descriptor();
    } catch (RuntimeException e) {
      world.ledger.thrown("the descriptor of a region", e);
    }
    byte[] bytes = values.descriptor(real);
    calls.run("decode a descriptor of " + bytes.length + " bytes", calls.caller(), () -> {
      RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(bytes);
      world.remotes.add(remote);
    });
    calls.run("RegionOffer.fromBytes of " + bytes.length + " bytes", calls.caller(),
        () -> RegionOffer.fromBytes(bytes));
  }
}
