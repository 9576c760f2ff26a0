package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.MessageChannelOptions;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.impl.ConnectionHooks;
import dev.rpma.vertx.impl.channel.ChannelWire.Greeting;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.nio.ByteBuffer;

/**
 * Sets up message channels as WIRE.md section 2 says: the server registers its pools and posts
 * every receive before it accepts; the client learns the server's pool from the accept, posts
 * its receives once connected and grants them in its first (credit) message. The pools are
 * closed again if the set-up fails half-way.
 */
public final class MessageChannels {

  private MessageChannels() {
  }

  public static boolean isChannelRequest(RpmaConnectionRequest request) {
    return request != null && ChannelWire.isGreeting(request.privateData());
  }

  public static Future<RpmaMessageChannel> connect(RpmaPeer peer, String address, int port,
      ConnectionOptions connectionOptions, MessageChannelOptions options) {
    if (peer == null || connectionOptions == null || options == null) {
      return Future.failedFuture(new IllegalArgumentException(
          "connect: the peer, the connection options and the channel options must not be null"));
    }
    MessageChannelOptions opts = new MessageChannelOptions(options);
    String bad = PoolChecks.check(connectionOptions, opts);
    if (bad != null) {
      return Future.failedFuture(new IllegalArgumentException("connect: " + bad));
    }
    int n = opts.getReceiveBuffers();
    int size = opts.getReceiveBufferSize();
    return peer.register(ByteBuffer.allocateDirect(n * size), MemoryUsage.RECV)
        .compose(receivePool -> peer.connect(new RpmaConnectOptions().setHost(address)
                .setPort(port).setConnectionOptions(connectionOptions)
                .setPrivateData(new Greeting(n, size).encode()))
            .compose(connection -> clientChannel(peer, connection, receivePool, opts),
                failed -> closing(failed, receivePool)));
  }

  private static Future<RpmaMessageChannel> clientChannel(RpmaPeer peer,
      RpmaConnection connection, MemoryRegion receivePool, MessageChannelOptions opts) {
    Greeting server;
    String bad;
    try {
      server = ChannelWire.decodeGreeting(connection.remotePrivateData(), "server");
      bad = PoolChecks.sendPool(opts, server.bufferSize());
    } catch (IllegalArgumentException e) {
      connection.close();
      return closing(e, receivePool);
    }
    if (bad != null) {
      connection.close();
      return closing(new IllegalArgumentException("connect: " + bad), receivePool);
    }
    return peer.register(ByteBuffer.allocateDirect(opts.getSendBuffers() * server.bufferSize()),
            MemoryUsage.SEND)
        .compose(sendPool -> {
          int n = opts.getReceiveBuffers();
          // the server posted its receives before accepting; ours are granted by the first message
          CreditLedger ledger = new CreditLedger(n, server.receiveBuffers(), n);
          ContextInternal context = ContextInternal.current();
          ReceiveSide receive = new ReceiveSide(receivePool, n, opts.getReceiveBufferSize(),
              ledger, context::reportException);
          MessageChannelImpl channel = new MessageChannelImpl(context,
              connection, receive, ledger, receivePool, sendPool, opts, server.bufferSize());
          receive.attach(connection, channel);
          receive.postAll();
          channel.start();
          return Future.<RpmaMessageChannel>succeededFuture(channel);
        }, failed -> {
          connection.close();
          return closing(failed, receivePool);
        });
  }

  public static Future<RpmaMessageChannel> accept(RpmaConnectionRequest request,
      MessageChannelOptions options) {
    if (request == null || options == null) {
      return Future.failedFuture(new IllegalArgumentException(
          "accept: the request and the channel options must not be null"));
    }
    ContextInternal context = ConnectionHooks.contextOf(request);
    MessageChannelOptions opts = new MessageChannelOptions(options);
    Greeting client;
    String bad;
    try {
      client = ChannelWire.decodeGreeting(request.privateData(), "client");
      bad = PoolChecks.sendPool(opts, client.bufferSize());
    } catch (IllegalArgumentException e) {
      request.reject();
      return context.failedFuture(e);
    }
    if (bad != null) {
      request.reject();
      return context.failedFuture(new IllegalArgumentException("accept: " + bad));
    }
    int n = opts.getReceiveBuffers();
    int size = opts.getReceiveBufferSize();
    RpmaPeer peer = ConnectionHooks.peerOf(request);
    Future<MemoryRegion> receiving = peer.register(ByteBuffer.allocateDirect(n * size),
        MemoryUsage.RECV);
    Future<MemoryRegion> sending = peer.register(
        ByteBuffer.allocateDirect(opts.getSendBuffers() * client.bufferSize()), MemoryUsage.SEND);
    return Future.join(receiving, sending).transform(ar -> {
      if (ar.failed()) {
        request.reject();
        return closing(ar.cause(), receiving.result(), sending.result());
      }
      return context.succeededFuture().compose(v -> serverChannel(context, request,
          receiving.result(), sending.result(), opts, client));
    });
  }

  /** On the request's context: post every receive, accept, then open the channel. */
  private static Future<RpmaMessageChannel> serverChannel(ContextInternal context,
      RpmaConnectionRequest request, MemoryRegion receivePool, MemoryRegion sendPool,
      MessageChannelOptions opts, Greeting client) {
    int n = opts.getReceiveBuffers();
    int size = opts.getReceiveBufferSize();
    // the client starts with our n; we start with nothing until its grant
    CreditLedger ledger = new CreditLedger(n, 0, 0);
    ReceiveSide receive = new ReceiveSide(receivePool, n, size, ledger,
        context::reportException);
    for (int i = 0; i < n; i++) {
      receive.watch(i, request.recv(receivePool, (long) i * size, size));
    }
    return request.accept(new Greeting(n, size).encode()).compose(connection -> {
      MessageChannelImpl channel = new MessageChannelImpl(context, connection, receive, ledger,
          receivePool, sendPool, opts, client.bufferSize());
      receive.attach(connection, channel);
      channel.start();
      return Future.<RpmaMessageChannel>succeededFuture(channel);
    }, failed -> closing(failed, receivePool, sendPool));
  }

  /** Closes what set-up registered, then fails with {@code why}. */
  private static <T> Future<T> closing(Throwable why, MemoryRegion... pools) {
    for (MemoryRegion pool : pools) {
      if (pool != null) {
        pool.close();
      }
    }
    return Future.failedFuture(why);
  }
}
