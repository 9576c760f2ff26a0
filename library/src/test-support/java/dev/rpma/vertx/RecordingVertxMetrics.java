package dev.rpma.vertx;

import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A metrics provider of the tests' own, through Vert.x's SPI as Micrometer's is: counts what
 * the client and pool metrics of each type and namespace are told.
 */
final class RecordingVertxMetrics implements VertxMetrics {

  /** Everything one client-metrics namespace (or one pool type) was told, summed. */
  static final class Counts {
    final List<String> remotes = new CopyOnWriteArrayList<>();
    final Map<String, AtomicLong> requestsByUri = new ConcurrentHashMap<>();
    final AtomicLong connected = new AtomicLong();
    final AtomicLong disconnected = new AtomicLong();
    final AtomicLong requestEnds = new AtomicLong();
    final AtomicLong bytesWritten = new AtomicLong();
    final AtomicLong responses = new AtomicLong();
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong resets = new AtomicLong();
    final AtomicLong closed = new AtomicLong();
    final AtomicLong enqueued = new AtomicLong();
    final AtomicLong dequeued = new AtomicLong();
    final AtomicLong begun = new AtomicLong();
    final AtomicLong ended = new AtomicLong();
    final AtomicLong inUse = new AtomicLong();
    final AtomicLong maxInUse = new AtomicLong();
    final List<Integer> poolSizes = new CopyOnWriteArrayList<>();

    long requests() {
      return requestsByUri.values().stream().mapToLong(AtomicLong::get).sum();
    }

    long requests(String uri) {
      AtomicLong n = requestsByUri.get(uri);
      return n == null ? 0 : n.get();
    }
  }

  /** Client metrics by "type/namespace", pool metrics by "pool/type". */
  final Map<String, Counts> counts = new ConcurrentHashMap<>();

  static VertxMetricsFactory factory(RecordingVertxMetrics metrics) {
    return options -> metrics;
  }

  Counts client(String type, String namespace) {
    return counts.computeIfAbsent(type + "/" + namespace, k -> new Counts());
  }

  Counts pool(String type) {
    return counts.computeIfAbsent("pool/" + type, k -> new Counts());
  }

  @Override
  public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type,
      String namespace) {
    Counts c = client(type, namespace);
    c.remotes.add(remoteAddress.toString());
    return new ClientMetrics<Object, Object, Object>() {
      @Override
      public Object init() {
        return new Object();
      }

      @Override
      public void requestBegin(Object m, String uri, Object request) {
        c.requestsByUri.computeIfAbsent(uri, k -> new AtomicLong()).incrementAndGet();
      }

      @Override
      public void requestEnd(Object m, long bytesWritten) {
        c.requestEnds.incrementAndGet();
        c.bytesWritten.addAndGet(bytesWritten);
      }

      @Override
      public void responseEnd(Object m, long bytesRead) {
        c.responses.incrementAndGet();
        c.bytesRead.addAndGet(bytesRead);
      }

      @Override
      public void requestReset(Object m) {
        c.resets.incrementAndGet();
      }

      @Override
      public void connected() {
        c.connected.incrementAndGet();
      }

      @Override
      public void disconnected() {
        c.disconnected.incrementAndGet();
      }

      @Override
      public void close() {
        c.closed.incrementAndGet();
      }
    };
  }

  @Override
  public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxSize) {
    Counts c = pool(poolType);
    c.poolSizes.add(maxSize);
    return new PoolMetrics<Object, Object>() {
      @Override
      public Object enqueue() {
        c.enqueued.incrementAndGet();
        return null; // a provider may: the library must still dequeue it
      }

      @Override
      public void dequeue(Object t) {
        c.dequeued.incrementAndGet();
      }

      @Override
      public Object begin() {
        c.begun.incrementAndGet();
        c.maxInUse.accumulateAndGet(c.inUse.incrementAndGet(), Math::max);
        return null;
      }

      @Override
      public void end(Object t) {
        c.ended.incrementAndGet();
        c.inUse.decrementAndGet();
      }
    };
  }
}
