package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MessageChannelOptions;
import dev.rpma.vertx.MessageChannelStats;
import dev.rpma.vertx.MessageTooLargeException;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaMessageChannel;
import dev.rpma.vertx.impl.ConnectionHooks;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.FutureInternal;

/**
 * The channel users hold: hops every call onto the channel's context, and ties the
 * {@link ReceiveSide}, the {@link SendSide} and the connection's life together. Ending: the
 * connection ends (any side, any reason) -> writes waiting fail, nothing more is posted, the
 * inbox hands over what arrived and then calls the end handler; the pools are closed, which
 * deregisters them once the operations on them have completed.
 */
final class MessageChannelImpl implements RpmaMessageChannel, ReceiveSide.Listener {

  private final ContextInternal context;
  private final RpmaConnection connection;
  private final int peerBufferSize;
  private final CreditLedger ledger;
  private final WriteQueue queue;
  private final ReceiveSide receive;
  private final SendSide send;
  private final MemoryRegion receivePool;
  private final MemoryRegion sendPool;
  private final Promise<Void> closed;
  private Handler<Throwable> exceptionHandler;
  private boolean ending;
  private boolean ended;

  MessageChannelImpl(ContextInternal context, RpmaConnection connection, ReceiveSide receive,
      CreditLedger ledger, MemoryRegion receivePool, MemoryRegion sendPool,
      MessageChannelOptions options, int peerBufferSize) {
    this.context = context;
    this.connection = connection;
    this.receive = receive;
    this.ledger = ledger;
    this.receivePool = receivePool;
    this.sendPool = sendPool;
    this.peerBufferSize = peerBufferSize;
    this.queue = new WriteQueue(options.getWriteQueueMaxSize());
    this.send = new SendSide(connection, sendPool, options.getSendBuffers(), peerBufferSize,
        ledger, queue, this::sendsDone);
    this.closed = context.promise();
    ConnectionHooks.onEnded(connection, why -> context.execute(() ->
        connectionEnded(why, !ConnectionHooks.closedByPeer(why))));
    // its user's or owner's close: no closeHandler call, and no error
    ConnectionHooks.whenClosed(connection).onComplete(ar -> context.execute(() ->
        connectionEnded(new RpmaConnectionClosedException("the message channel was closed"),
            false)));
  }

  /** Sends what is due (a client's first grant, say). */
  void start() {
    flush();
  }

  // ---------------------------------------------------------------- ReceiveSide.Listener

  @Override
  public void flush() {
    send.flush();
  }

  @Override
  public void protocolError(String what) {
    RpmaConnectionClosedException why = new RpmaConnectionClosedException(
        "message channel: the peer broke the wire format (WIRE.md): " + what);
    connection.close();
    connectionEnded(why, true);
  }

  // ---------------------------------------------------------------- life

  /** The connection ended, whoever ended it; the first reason wins. */
  private void connectionEnded(Throwable reason, boolean error) {
    if (ended) {
      return;
    }
    ended = true;
    send.stop();
    queue.failAll(reason instanceof RpmaConnectionClosedException ? reason
        : new RpmaConnectionClosedException("the message channel's connection ended", reason));
    if (error && exceptionHandler != null) {
      exceptionHandler.handle(reason);
    }
    receive.stop();
    Future.join(connection.close(), receivePool.close(), sendPool.close())
        .onComplete(ar -> closed.tryComplete());
  }

  private void sendsDone() {
    if (ending && !ended) {
      connection.close();
    }
  }

  private void onContext(Runnable action) {
    if (context.inThread()) {
      action.run();
    } else {
      context.execute(action);
    }
  }

  // ---------------------------------------------------------------- WriteStream

  @Override
  public Future<Void> write(Buffer data) {
    if (data == null) {
      return context.failedFuture(new NullPointerException("write: the message is null"));
    }
    if (data.length() > peerBufferSize) {
      return context.failedFuture(new MessageTooLargeException(data.length(), peerBufferSize));
    }
    if (context.inThread() && !ending && !ended) {
      Future<Void> sending = send.sendNow(data);
      if (sending != null) {
        return onChannelContext(sending);
      }
    }
    Promise<Void> promise = context.promise();
    queue.reserve(); // counted now, on this thread: writeQueueFull() sees it before the hop
    onContext(() -> {
      if (ending || ended) {
        queue.cancel();
        promise.fail(new IllegalStateException("write: the message channel is "
            + (ended ? "closed" : "ended") + "; no message is sent after end() or close()"));
        return;
      }
      queue.add(new WriteQueue.Write(data, promise));
      send.flush();
    });
    return promise.future();
  }

  /**
   * A send's Future as the write's: itself if it completes on the channel's context (the
   * connection's and the channel's are one unless the channel was made elsewhere), else a
   * Future of the channel's context that follows it.
   */
  private Future<Void> onChannelContext(Future<Void> sending) {
    if (sending instanceof FutureInternal<Void> f && f.context() == context) {
      return sending;
    }
    Promise<Void> write = context.promise();
    sending.onComplete(write);
    return write.future();
  }

  @Override
  public Future<Void> end() {
    onContext(() -> {
      ending = true;
      if (send.isIdle()) {
        sendsDone();
      }
    });
    return closed.future();
  }

  @Override
  public Future<Void> close() {
    onContext(() -> {
      ending = true;
      connection.close();
    });
    return closed.future();
  }

  @Override
  public RpmaMessageChannel setWriteQueueMaxSize(int maxSize) {
    queue.maxSize(maxSize);
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return queue.isFull();
  }

  @Override
  public RpmaMessageChannel drainHandler(Handler<Void> handler) {
    onContext(() -> queue.drainHandler(handler));
    return this;
  }

  @Override
  public RpmaMessageChannel exceptionHandler(Handler<Throwable> handler) {
    onContext(() -> exceptionHandler = handler);
    return this;
  }

  // ---------------------------------------------------------------- ReadStream

  @Override
  public RpmaMessageChannel handler(Handler<Buffer> handler) {
    onContext(() -> {
      receive.inbox().handler(handler);
      flush();
    });
    return this;
  }

  @Override
  public RpmaMessageChannel pause() {
    onContext(() -> receive.inbox().pause());
    return this;
  }

  @Override
  public RpmaMessageChannel resume() {
    onContext(() -> {
      receive.inbox().resume();
      flush();
    });
    return this;
  }

  @Override
  public RpmaMessageChannel fetch(long amount) {
    if (amount < 0) {
      throw new IllegalArgumentException("fetch a number of messages >= 0, got " + amount);
    }
    onContext(() -> {
      receive.inbox().fetch(amount);
      flush();
    });
    return this;
  }

  @Override
  public RpmaMessageChannel endHandler(Handler<Void> endHandler) {
    onContext(() -> receive.inbox().endHandler(endHandler));
    return this;
  }

  // ---------------------------------------------------------------- the rest

  @Override
  public int maxMessageSize() {
    return peerBufferSize;
  }

  @Override
  public RpmaConnection connection() {
    return connection;
  }

  @Override
  public Context context() {
    return context;
  }

  @Override
  public MessageChannelStats stats() {
    return new MessageChannelStats(send.messages(), receive.messages(), send.creditMessages(),
        receive.creditMessages(), ledger.credit(), queue.size(), receive.inbox().waiting());
  }
}
