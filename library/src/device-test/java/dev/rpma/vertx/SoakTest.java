package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Mixed operations for a while: 32 lanes, each repeating write, flush, read back, compare,
 * atomic write, read back, compare, send to the server and check what it received. Every
 * Future completes exactly once and every byte read is the byte written. 15 s by default;
 * RPMA_SOAK_SECONDS for a long run.
 */
@Tag("rdma")
class SoakTest {

  private static final int LANES = 32;
  private static final int LANE_BYTES = 1024;

  @Test
  void mixedOperationsCompleteExactlyOnceAndTheDataReadIsTheDataWritten() {
    long seconds = Long.parseLong(System.getenv().getOrDefault("RPMA_SOAK_SECONDS", "15"));
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      Soak soak = new Soak(pair, System.nanoTime() + seconds * 1_000_000_000L);

      await(soak.run());

      System.out.printf("soak: %d operations in %d s, %d rounds verified%n",
          soak.issued.get(), seconds, soak.rounds.get());
      assertEquals(soak.issued.get(), soak.completed.get(), "every operation completed once");
      assertEquals(0, soak.doubleCompletions.get(), "no operation completed twice");
      assertEquals(0, soak.mismatches.get(), "every byte read back was the byte written");
      assertTrue(soak.rounds.get() >= LANES, "each lane went round at least once");
    } finally {
      await(vertx.close());
    }
  }

  /** The lanes, all on the client's loop. */
  private static final class Soak {
    final Loopback pair;
    final long deadline;
    final AtomicLong issued = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong doubleCompletions = new AtomicLong();
    final AtomicLong mismatches = new AtomicLong();
    final AtomicLong rounds = new AtomicLong();
    final Promise<Void> done = Promise.promise();
    int lanesRunning = LANES;

    Soak(Loopback pair, long deadline) {
      this.pair = pair;
      this.deadline = deadline;
    }

    Future<Void> run() {
      pair.client.context().runOnContext(v -> {
        for (int lane = 0; lane < LANES; lane++) {
          round(lane, 0);
        }
      });
      return done.future();
    }

    /** Counts the operation and checks its Future completes exactly once. */
    private <T> Future<T> counted(Future<T> op) {
      issued.incrementAndGet();
      boolean[] seen = new boolean[1];
      return op.andThen(ar -> {
        if (seen[0]) {
          doubleCompletions.incrementAndGet();
        }
        seen[0] = true;
        completed.incrementAndGet();
      });
    }

    private void round(int lane, int seq) {
      if (System.nanoTime() > deadline) {
        if (--lanesRunning == 0) {
          done.complete();
        }
        return;
      }
      long base = (long) lane * LANE_BYTES;
      long readBack = 32 * 1024 + base;
      byte[] data = new byte[LANE_BYTES / 2];
      Arrays.fill(data, (byte) (lane * 7 + seq));
      pair.clientBytes().put((int) base, data);
      long value = ((long) lane << 32) | seq;
      RpmaConnection c = pair.client;
      counted(c.write(pair.remote, base, pair.clientRegion, base, data.length))
          .compose(v -> counted(c.flush(pair.remote, base, data.length, FlushType.VISIBILITY)))
          .compose(v -> counted(c.read(pair.clientRegion, readBack, pair.remote, base,
              data.length)))
          .compose(v -> {
            byte[] back = new byte[data.length];
            pair.clientBytes().get((int) readBack, back);
            if (!Arrays.equals(data, back)) {
              mismatches.incrementAndGet();
            }
            return counted(c.atomicWrite(pair.remote, base + data.length, value));
          })
          .compose(v -> counted(c.read(pair.clientRegion, readBack, pair.remote,
              base + data.length, 8)))
          .onComplete(ar -> {
            if (ar.failed() || pair.clientBytes().order(java.nio.ByteOrder.nativeOrder())
                .getLong((int) readBack) != value) {
              mismatches.incrementAndGet();
            }
            rounds.incrementAndGet();
            round(lane, seq + 1);
          });
    }
  }
}
