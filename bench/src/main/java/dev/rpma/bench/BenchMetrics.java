package dev.rpma.bench;

import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import java.util.concurrent.atomic.LongAdder;

/**
 * A metrics provider for the "metrics on" variant: what a provider such as Vert.x Micrometer
 * Metrics does per request, without its registry: a timer per request (a clock read when it
 * begins and when it ends, the duration added to thread-safe sums), bytes counted, and the
 * pool's queue and use timed the same way. Micrometer's own cost (tags, registry lookups,
 * histograms) comes on top of this and belongs to the provider the application picks; what
 * this measures is what the library adds when metrics are on: the SPI calls and its token per
 * operation.
 */
final class BenchMetrics implements VertxMetrics {

  /** Sums over every request, as a timer and counters of a registry would keep them. */
  static final class Sums {
    final LongAdder requests = new LongAdder();
    final LongAdder nanos = new LongAdder();
    final LongAdder bytesWritten = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder resets = new LongAdder();

    void ended(long startNanos) {
      requests.increment();
      nanos.add(System.nanoTime() - startNanos);
    }
  }

  final Sums client = new Sums();
  final Sums pool = new Sums();

  static VertxMetricsFactory factory() {
    return options -> new BenchMetrics();
  }

  /** A request's timer sample: the clock when it began. */
  private static final class Sample {
    long start;
  }

  @Override
  public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type,
      String namespace) {
    return new ClientMetrics<Sample, Object, Object>() {
      @Override
      public Sample init() {
        return new Sample();
      }

      @Override
      public void requestBegin(Sample sample, String uri, Object request) {
        sample.start = System.nanoTime();
      }

      @Override
      public void requestEnd(Sample sample, long bytesWritten) {
        client.bytesWritten.add(bytesWritten);
      }

      @Override
      public void responseEnd(Sample sample, long bytesRead) {
        client.bytesRead.add(bytesRead);
        client.ended(sample.start);
      }

      @Override
      public void requestReset(Sample sample) {
        client.resets.increment();
      }
    };
  }

  @Override
  public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxSize) {
    return new PoolMetrics<Long, Long>() {
      @Override
      public Long enqueue() {
        return System.nanoTime();
      }

      @Override
      public void dequeue(Long queued) {
        pool.ended(queued);
      }

      @Override
      public Long begin() {
        return System.nanoTime();
      }

      @Override
      public void end(Long begun) {
        pool.ended(begun);
      }
    };
  }
}
