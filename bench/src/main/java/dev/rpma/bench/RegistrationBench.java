package dev.rpma.bench;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The registration-cost scenario through the library: {@code register(Path, 0, length, ...)}
 * (checks, mmap and rpma_mr_reg on the peer's worker, the Future back on the caller) and
 * {@code close()} (rpma_mr_dereg and munmap on the worker), ROUNDS times after one warm-up
 * round that faults the file's pages in. Beside it, bench/c/register_bench.c does the same
 * with librpma directly. Prints one line:
 * {@code REG library <length> <median register us> <median deregister us>}.
 *
 * <p>Usage: {@code RegistrationBench ADDRESS FILE LENGTH ROUNDS} (scripts/bench-registration.sh).
 */
public final class RegistrationBench {

  private static final Set<MemoryUsage> USAGES = EnumSet.of(MemoryUsage.WRITE_DST,
      MemoryUsage.READ_SRC, MemoryUsage.FLUSH_PERSISTENT, MemoryUsage.FLUSH_VISIBILITY);

  private RegistrationBench() {
  }

  public static void main(String[] args) {
    if (args.length != 4) {
      System.err.println("usage: RegistrationBench ADDRESS FILE LENGTH ROUNDS");
      System.exit(2);
    }
    Path file = Path.of(args[1]);
    long length = Long.parseLong(args[2]);
    int rounds = Integer.parseInt(args[3]);
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    try {
      RpmaPeer peer = RpmaPeer.open(vertx, args[0]).await();
      double[] register = new double[rounds];
      double[] deregister = new double[rounds];
      for (int i = -1; i < rounds; i++) {
        long t0 = System.nanoTime();
        MemoryRegion region = peer.register(file, 0, length, USAGES).await();
        long t1 = System.nanoTime();
        region.close().await();
        long t2 = System.nanoTime();
        if (i >= 0) { // round -1 warms up: faults the pages in
          register[i] = (t1 - t0) / 1e3;
          deregister[i] = (t2 - t1) / 1e3;
        }
      }
      peer.close().await();
      System.out.printf("REG library %d %.1f %.1f%n", length, median(register),
          median(deregister));
    } finally {
      vertx.close().await();
    }
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
