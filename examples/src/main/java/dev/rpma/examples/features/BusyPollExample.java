package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * Hybrid polling ({@code ConnectionOptions.setBusyPollMicros}): writes posted one after
 * another, each from the callback of the one before, on a connection that sleeps on its CQ's fd
 * between completions and on one that spins on the CQ for a while first. The spinning one takes
 * most completions without a wakeup of its event loop ({@code stats().wakeups()}).
 * {@code ./dev example busy-poll}.
 */
public final class BusyPollExample implements FeatureExample {

  private static final int WRITES = 300;
  /**
   * Longer than a round trip, so the next completion comes within the spin: about 0.1 ms on the
   * emulated device, so 10 ms here (the spin still yields the loop every 1 ms); on an RNIC a
   * few microseconds.
   */
  private static final int SPIN_MICROS = 10_000;

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new BusyPollExample()));
  }

  @Override
  public String name() {
    return "busy-poll";
  }

  @Override
  public int defaultPort() {
    return 7314;
  }

  @Override
  public String run(String address, int port) {
    Vertx vertx = NativeVertx.create();
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));
      ServerAndClient sleeping = ServerAndClient.open(peer, address, port, 64,
          new ConnectionOptions());
      ServerAndClient spinning = ServerAndClient.open(peer, address, port + 1, 64,
          new ConnectionOptions().setBusyPollMicros(SPIN_MICROS));

      await(writesOneAfterAnother(sleeping, WRITES));
      await(writesOneAfterAnother(spinning, WRITES));
      CompletionStats slept = sleeping.client().stats();
      CompletionStats spun = spinning.client().stats();
      FeatureExample.check(slept.completions() == WRITES && spun.completions() == WRITES,
          "completions " + slept.completions() + " and " + spun.completions() + ", expected "
          + WRITES + " each");
      FeatureExample.check(spun.wakeups() < WRITES / 2, "the spinning connection was woken "
          + spun.wakeups() + " times for " + WRITES + " completions");

      await(peer.close());
      return String.format("writes       %d, one after another, on each connection%n"
          + "sleeping     wakeups %d for %d completions%n"
          + "busy poll    wakeups %d for %d completions (setBusyPollMicros(%d))%n",
          WRITES, slept.wakeups(), slept.completions(), spun.wakeups(), spun.completions(),
          SPIN_MICROS);
    } finally {
      await(vertx.close());
    }
  }

  /** Each write is posted from the callback of the one before, on the connection's loop. */
  private static Future<Void> writesOneAfterAnother(ServerAndClient pair, int left) {
    if (left == 0) {
      return Future.succeededFuture();
    }
    return pair.client().write(pair.remote(), 0, pair.local(), 0, 64)
        .compose(v -> writesOneAfterAnother(pair, left - 1));
  }
}
