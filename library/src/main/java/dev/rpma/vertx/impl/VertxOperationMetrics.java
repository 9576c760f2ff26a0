package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.SharedReceived;
import dev.rpma.vertx.impl.engine.OperationMetrics;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;

/**
 * A connection reported through Vert.x's metrics SPI, when the application enabled metrics
 * ({@code VertxOptions.setMetricsOptions}), in the two shapes a provider such as Vert.x
 * Micrometer Metrics already shows without configuration (as it does for the SQL clients):
 * <ul>
 *   <li>client metrics of type {@value #TYPE} (remote: the peer's address, or the server's own
 *       for an accepted connection; namespace: {@code client} or {@code server}): one request
 *       per operation, its URI the operation's name ({@code write}, {@code recv} ...); begun
 *       when it reaches the loop, its request ended when posted (with the bytes it sends), its
 *       response ended when it completes (with the bytes it brings), reset when it fails;
 *       each end through the one form of the SPI's two the provider implements
 *       ({@link ClientMetricsEnds}), so it is recorded once, by Micrometer's too;
 *       {@code connected()} at ESTABLISHED, {@code disconnected()} at close;</li>
 *   <li>pool metrics of type {@value #TYPE}, one per connection (its queues as the pool, their
 *       room as its size): queued while an operation waits for room, in use while in flight.</li>
 * </ul>
 * A shared receive queue's receives are reported the same way ({@link #ofSharedQueue}).
 * Keepalive probes are the library's own and not reported. Loop-confined, like the engine.
 */
final class VertxOperationMetrics implements OperationMetrics {

  static final String TYPE = "rpma";
  /** The namespace (and pool name prefix) of a shared receive queue's receives. */
  static final String SHARED_QUEUE = "shared-queue";

  private final ClientMetrics<Object, Object, Object> client;
  /** Which of the SPI's two forms of each end the provider implements. */
  private final ClientMetricsEnds ends;
  private final PoolMetrics<Object, Object> queues;
  private boolean connected;

  /** One operation's progress through both. */
  private static final class Op {
    final byte kind;
    final long length;
    final Object request;
    /** The provider's tokens (which may be null): flags say whether they were taken. */
    boolean waiting;
    Object queued;
    boolean inUse;
    Object use;

    Op(byte kind, long length, Object request) {
      this.kind = kind;
      this.length = length;
      this.request = request;
    }
  }

  @SuppressWarnings("unchecked")
  private VertxOperationMetrics(VertxMetrics metrics, SocketAddress address, String role,
      String poolName, int capacity) {
    this.client = (ClientMetrics<Object, Object, Object>) metrics.createClientMetrics(address,
        TYPE, role);
    this.ends = client != null ? ClientMetricsEnds.of(client) : null;
    this.queues = (PoolMetrics<Object, Object>) metrics.createPoolMetrics(TYPE, poolName,
        capacity);
  }

  /**
   * The metrics of a connection on {@code context}: {@link OperationMetrics#NONE} when the
   * application runs without metrics.
   */
  static OperationMetrics of(ContextInternal context, String host, int port, String role,
      ConnectionOptions options) {
    VertxMetrics metrics = context.owner().metrics();
    if (metrics == null) {
      return NONE;
    }
    int capacity = options.getSqSize() + options.getRqSize();
    SocketAddress address = SocketAddress.inetSocketAddress(port, host);
    return new VertxOperationMetrics(metrics, address, role, role + " " + address, capacity);
  }

  /**
   * The metrics of a shared receive queue on {@code context}, whose receives are reported as a
   * connection's are: client metrics of namespace {@value #SHARED_QUEUE} with the peer's own
   * address (port 0: a queue has no remote end), and a pool named after the queue whose size is
   * the receives it can have posted. {@link OperationMetrics#NONE} without metrics.
   */
  static OperationMetrics ofSharedQueue(ContextInternal context, String peerAddress,
      String queueName, int capacity) {
    VertxMetrics metrics = context.owner().metrics();
    if (metrics == null) {
      return NONE;
    }
    return new VertxOperationMetrics(metrics, SocketAddress.inetSocketAddress(0, peerAddress),
        SHARED_QUEUE, SHARED_QUEUE + " " + queueName, capacity);
  }

  @Override
  public Object started(byte kind, long length) {
    Object request = client != null ? client.init() : null;
    if (client != null) {
      client.requestBegin(request, OpKind.name(kind), null);
    }
    return new Op(kind, length, request);
  }

  @Override
  public void queued(Object token) {
    if (queues != null) {
      Op op = (Op) token;
      op.queued = queues.enqueue();
      op.waiting = true;
    }
  }

  @Override
  public void posted(Object token) {
    Op op = (Op) token;
    if (queues != null) {
      dequeue(op);
      op.use = queues.begin();
      op.inUse = true;
    }
    if (client != null) {
      ends.requestEnd(client, op.request, bytesSent(op.kind, op.length));
    }
  }

  @Override
  public void ended(Object token, Object result, Throwable failure) {
    Op op = (Op) token;
    if (queues != null) {
      dequeue(op);
      if (op.inUse) {
        queues.end(op.use);
        op.inUse = false;
      }
    }
    if (client == null) {
      return;
    }
    if (failure != null) {
      client.requestReset(op.request);
    } else {
      client.responseBegin(op.request, null);
      ends.responseEnd(client, op.request, bytesBrought(op.kind, op.length, result));
    }
  }

  private void dequeue(Op op) {
    if (op.waiting) {
      queues.dequeue(op.queued);
      op.waiting = false;
    }
  }

  @Override
  public void opened() {
    connected = true;
    if (client != null) {
      client.connected();
    }
  }

  @Override
  public void closed() {
    if (client != null) {
      if (connected) {
        client.disconnected();
      }
      client.close();
    }
    if (queues != null) {
      queues.close();
    }
  }

  /** What an operation carries to the peer: a write's or a send's bytes, an atomic's 8. */
  private static long bytesSent(byte kind, long length) {
    return switch (kind) {
      case OpKind.WRITE, OpKind.WRITE_WITH_IMM, OpKind.SEND, OpKind.SEND_WITH_IMM,
          OpKind.ATOMIC_WRITE -> length;
      default -> 0;
    };
  }

  /** What a successful operation brought back: a read's bytes, a receive's message. */
  private static long bytesBrought(byte kind, long length, Object result) {
    if (result instanceof Received r) {
      return r.byteLength();
    }
    if (result instanceof SharedReceived r) {
      return r.byteLength();
    }
    return kind == OpKind.READ ? length : 0;
  }
}
