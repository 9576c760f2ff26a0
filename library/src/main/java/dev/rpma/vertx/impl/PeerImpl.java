package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaServer;
import dev.rpma.vertx.RpmaSharedReceiveQueue;
import dev.rpma.vertx.SharedReceiveQueueOptions;
import dev.rpma.vertx.impl.engine.SetupCalls;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Closeable;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The peer: a protection domain on the device that serves an address.
 *
 * <p>librpma's set-up calls on one peer are not all thread-safe (THREAD_SAFETY.md), and some
 * block: they run on worker threads, one at a time per peer ({@link #blocking}).
 */
public final class PeerImpl implements RpmaPeer, Closeable {

  private final VertxInternal vertx;
  private final String address;
  private final String deviceName;
  /** Where its device comes from: librpma ({@link JniProvider}) unless the test kit's. */
  private final RpmaProvider provider;
  /** Its peer on the device, made by the provider. */
  private final ProviderPeer librpma;
  private final DeviceLimits device;
  /** The kernel's index of its device, where its connections' addresses are read; -1 if none. */
  private final int deviceIndex;
  private final SetupQueue setupCalls = new SetupQueue();
  /** librpma's peer is deleted (a set-up call): its handle must not reach librpma again. */
  private boolean deleted;
  /**
   * What this peer made, closed before the peer: its servers and connections first (so an
   * operation racing the close fails because its connection closed), then its regions.
   */
  private final CloseFuture owned = new CloseFuture();
  /** Its shared receive queues: after the connections attached, before the regions. */
  private final CloseFuture queues = new CloseFuture();
  /** Its regions, their registration and what the device allows of them. */
  private final PeerRegions regions = new PeerRegions(this);
  private volatile boolean closed;
  /** What {@link #listen(int, String)} hands requests to: set before listening. */
  private volatile Handler<RpmaConnectionRequest> requestHandler;
  private CloseFuture owner;
  private Future<Void> closing;

  PeerImpl(VertxInternal vertx, String address, RpmaProvider provider, ProviderPeer librpma) {
    this.deviceIndex = librpma.deviceIndex();
    this.vertx = vertx;
    this.address = address;
    this.deviceName = librpma.deviceName();
    this.device = librpma.limits();
    this.provider = provider;
    this.librpma = librpma;
  }

  /** Opens a peer: checks on the caller, the device and librpma's peer on a worker. */
  public static Future<RpmaPeer> open(Vertx vertx, String address) {
    return PeerOpening.open(vertx, address, JniProvider.INSTANCE);
  }

  /**
   * Opens a peer on another provider's device: the test kit's entry (users open it through
   * {@code RpmaTestKit}, never by accident).
   */
  public static Future<RpmaPeer> open(Vertx vertx, String address, RpmaProvider provider) {
    return PeerOpening.open(vertx, address, provider);
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public String deviceName() {
    return deviceName;
  }

  VertxInternal vertx() {
    return vertx;
  }

  /** Whether its close has begun. */
  boolean isClosing() {
    return closed;
  }

  /**
   * librpma's peer, for a call that makes something on it, inside {@link #blocking}. A call
   * checked the peer open, then may have waited for its turn while the peer's close deleted
   * it: refused then, not run on a freed peer (a use after free in librpma). Deleting what was
   * made (an endpoint, say) needs no peer and is not refused.
   */
  public long handle() {
    if (!(librpma() instanceof JniProviderPeer jni)) {
      throw new IllegalStateException("this peer is not on librpma (" + deviceName + ")");
    }
    return jni.handle();
  }

  /** Its peer on the device, as {@link #handle()} refuses it once deleted. */
  ProviderPeer librpma() {
    if (deleted) {
      throw closedError();
    }
    return librpma;
  }

  /** Its peer on the device to free what was made on it: not refused (that needs no peer). */
  ProviderPeer librpmaToFree() {
    return librpma;
  }

  /** How the engines of what it makes wait on the loop of {@code context}. */
  LoopIo loopIo(ContextInternal context) {
    return provider.loopIo(context);
  }

  /** The event-loop context what the caller makes lives on (see {@link RpmaProvider}). */
  ContextInternal eventLoopContext(ContextInternal caller) {
    return provider.eventLoopContext(vertx, caller);
  }

  int deviceIndex() {
    return deviceIndex;
  }

  /** What the device allows: queue sizes, queue pairs, completion queues, regions. */
  DeviceLimits device() {
    return device;
  }

  /** Runs a set-up call on a worker thread, serialised per peer; result on the caller's context. */
  public <T> Future<T> blocking(Callable<T> call) {
    return blocking(vertx.getOrCreateContext(), call);
  }

  /** {@link #blocking} as the engines' {@link SetupCalls} (rpma_conn_delete, rpma_srq_delete). */
  SetupCalls setupCalls() {
    return (ctx, call) -> blocking(ctx, () -> {
      call.run();
      return null;
    });
  }

  /** Same, with the result delivered on the given context. */
  public <T> Future<T> blocking(ContextInternal context, Callable<T> call) {
    return setupCalls.submit(context, call);
  }

  /**
   * The peer belongs to the context that opened it: a verticle's undeploy closes it (with what
   * it made), and so does vertx.close() for a peer opened outside any verticle.
   */
  synchronized void ownedBy(CloseFuture contextClose) {
    owner = contextClose;
    if (!contextClose.add(this)) {
      close(); // its owner is already closing
    }
  }

  /** The ownership node of its servers and connections: add to it, remove when closed alone. */
  CloseFuture owned() {
    return owned;
  }

  /** The ownership node of its shared receive queues. */
  CloseFuture queues() {
    return queues;
  }

  /** Its regions: their ownership node, what the device allows of them. */
  PeerRegions regions() {
    return regions;
  }

  private IllegalStateException closedError() {
    return new IllegalStateException("the peer is closed");
  }

  @Override
  public Future<MemoryRegion> register(ByteBuffer buffer, Set<MemoryUsage> usages) {
    return regions.register(buffer, usages);
  }

  @Override
  public Future<MemoryRegion> register(Path file, long offset, long length,
      Set<MemoryUsage> usages) {
    return regions.register(file, offset, length, usages);
  }

  @Override
  public boolean onDemandPaging() {
    return regions.caps().onDemandPaging();
  }

  @Override
  public long maxRegionSize() {
    return regions.caps().maxRegionSize();
  }

  @Override
  public Future<RpmaConnection> connect(RpmaConnectOptions options) {
    String invalid = ConnectTargets.check(options);
    return invalid != null
        ? vertx.getOrCreateContext().failedFuture(new IllegalArgumentException(invalid))
        : connectTo(options.getHost(), options.getPort(), options.getConnectionOptions(),
            options.getPrivateData(), options.getSharedReceiveQueue());
  }

  @Override
  public Future<RpmaConnection> connect(int port, String host) {
    return connectTo(host, port, new ConnectionOptions(), null, null);
  }

  @Override
  public Future<RpmaConnection> connect(SocketAddress address) {
    String invalid = ConnectTargets.check(address);
    return invalid != null
        ? vertx.getOrCreateContext().failedFuture(new IllegalArgumentException(invalid))
        : connect(address.port(), ConnectTargets.host(address));
  }

  /** The one connect path; {@code privateData}: the options' own copy, null for none. */
  private Future<RpmaConnection> connectTo(String address, int port, ConnectionOptions options,
      byte[] privateData, RpmaSharedReceiveQueue queue) {
    ContextInternal caller = vertx.getOrCreateContext();
    ContextInternal ctx;
    try {
      ctx = eventLoopContext(caller);
    } catch (RuntimeException e) {
      return caller.failedFuture(e);
    }
    String invalid = ConnectTargets.check(address, port, options, device);
    if (invalid != null) {
      return ctx.failedFuture(new IllegalArgumentException(invalid));
    }
    if (closed) {
      return ctx.failedFuture(closedError());
    }
    ConnectionOptions opts = new ConnectionOptions(options);
    SharedReceiveQueueImpl srq;
    try {
      srq = SharedReceiveQueueImpl.hold(queue, this, ctx, opts);
    } catch (RuntimeException e) {
      return LoopContexts.onCaller(caller, ctx, ctx.failedFuture(e));
    }
    // the peer's close waits for the queue pair being made, which it does not own yet
    BeingMade making = BeingMade.on(owned);
    if (making == null) {
      if (srq != null) {
        srq.release();
      }
      return LoopContexts.onCaller(caller, ctx, ctx.failedFuture(closedError()));
    }
    ConnectAttempt attempt = new ConnectAttempt(address, port, opts);
    Future<RpmaConnection> connected = blocking(ctx,
        () -> librpma().connect(address, port, opts, privateData, srq != null ? srq.handle() : 0,
            attempt))
        .onFailure(SharedReceiveQueueImpl.releaseOnFailure(srq)) // no queue pair made
        .compose(conn -> ConnectionImpl.start(this, ctx, caller, conn,
            attempt.afterResolution(opts, System.nanoTime()),
            "connection to " + address + ":" + port, srq,
            ConnectionEnds.client(deviceIndex, this.address, address, port),
            VertxOperationMetrics.of(ctx, address, port, "client", opts)))
        .recover(e -> ctx.failedFuture(attempt.failed(e)));
    return LoopContexts.onCaller(caller, ctx, making.until(connected));
  }

  @Override
  public RpmaPeer connectionRequestHandler(Handler<RpmaConnectionRequest> handler) {
    this.requestHandler = handler;
    return this;
  }

  @Override
  public Future<RpmaServer> listen(int port, String host) {
    Handler<RpmaConnectionRequest> handler = requestHandler;
    return handler == null ? vertx.getOrCreateContext().failedFuture(ConnectTargets.noHandler())
        : listen(port, host, handler);
  }

  @Override
  public Future<RpmaServer> listen(int port, String host, ConnectionOptions options,
      RpmaSharedReceiveQueue queue, Handler<RpmaConnectionRequest> requestHandler) {
    return ServerImpl.listen(this, host, port, options, queue, requestHandler);
  }

  /**
   * rpma_conn_req_new then rpma_conn_req_connect: the librpma connection, not established yet.
   * Blocks: on a worker, inside {@link #blocking}.
   */
  public long requestConnection(String address, int port, ConnectionOptions options,
      byte[] privateData) {
    return Endpoints.requestConnection(handle(), device, address, port, options, privateData, 0);
  }

  @Override
  public synchronized Future<Void> close() {
    if (closing == null) {
      closed = true;
      if (owner != null) {
        owner.remove(this);
      }
      closing = owned.close().transform(ar -> queues.close())
          .transform(ar -> regions.close()).transform(ar ->
          blocking(() -> {
            librpma.delete();
            deleted = true;
            return null;
          })).mapEmpty();
    }
    return closing;
  }

  @Override
  public Future<RpmaSharedReceiveQueue> createSharedReceiveQueue(
      SharedReceiveQueueOptions options) {
    ContextInternal caller = vertx.getOrCreateContext();
    return closed ? caller.failedFuture(closedError()) : SharedReceiveQueueImpl.create(this,
        caller, options);
  }

  /** Its owner (the verticle that opened it, or Vert.x) is closing. */
  @Override
  public void close(Completable<Void> completion) {
    close().onComplete(completion);
  }
}
