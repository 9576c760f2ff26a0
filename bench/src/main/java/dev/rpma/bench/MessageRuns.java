package dev.rpma.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * The two measurements of the channel benchmark, on a path's context: round trips one at a
 * time, and one-way messages with a window in flight until a deadline. Each yields the
 * latency samples (per round trip, or per message from write to its send completion), the
 * count and the elapsed time.
 */
final class MessageRuns {

  /** What one run measured. */
  record Result(Samples samples, long messages, long elapsedNanos) {
    double perSecond() {
      return messages / (elapsedNanos / 1e9);
    }
  }

  private MessageRuns() {
  }

  static Future<Result> roundTrips(MessagePath path, int count) {
    Promise<Result> done = Promise.promise();
    path.context().runOnContext(v -> new Object() {
      final Samples samples = new Samples(count);
      final long start = System.nanoTime();
      int completed;

      void next() {
        long t0 = System.nanoTime();
        path.roundTrip().onComplete(ar -> {
          if (ar.failed()) {
            done.tryFail(ar.cause());
            return;
          }
          long now = System.nanoTime();
          samples.add(now - t0);
          if (++completed == count) {
            done.complete(new Result(samples, count, now - start));
          } else {
            next();
          }
        });
      }
    }.next());
    return done.future();
  }

  static Future<Result> oneWay(MessagePath path, int window, long durationNanos) {
    Promise<Result> done = Promise.promise();
    path.context().runOnContext(v -> new Object() {
      final Samples samples = new Samples(1 << 16);
      final long start = System.nanoTime();
      final long deadline = start + durationNanos;
      long messages;
      long last = start;
      int inFlight = window;

      void post() {
        long t0 = System.nanoTime();
        path.oneWay().onComplete(ar -> {
          long now = System.nanoTime();
          if (ar.failed()) {
            done.tryFail(ar.cause());
            return;
          }
          samples.add(now - t0);
          messages++;
          last = now;
          if (now < deadline) {
            post();
          } else if (--inFlight == 0) {
            done.complete(new Result(samples, messages, last - start));
          }
        });
      }

      void begin() {
        for (int i = 0; i < window; i++) {
          post();
        }
      }
    }.begin());
    return done.future();
  }
}
