package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The device disappears ({@code rdma link delete}) under a live connection with 64 writes in
 * flight: the connection reports loss, every write completes (fails), and the event loop
 * neither spins on the dead fds nor stops serving other work.
 *
 * <p>A main, not a JUnit test: the kernel finishes deleting an rxe device only when every
 * process that opened it has exited (librdmacm keeps the verbs contexts open for the life of
 * the process), so this runs in its own JVM, last in the guest (scripts/testbed/suite.d), and
 * the script waits for the delete and restores the link. Prints PASS or FAIL lines; exit 0 iff
 * every check passed. Destructive: refuses to run outside the throw-away guest.
 */
public final class DeviceRemovalMain {

  private DeviceRemovalMain() {
  }

  private static int failures;

  private static void check(boolean ok, String what) {
    System.out.println((ok ? "PASS " : "FAIL ") + what);
    if (!ok) {
      failures++;
    }
  }

  public static void main(String[] args) throws Exception {
    if (!"1".equals(System.getenv("RPMA_TEST_GUEST"))) {
      System.out.println("refusing to delete an RDMA link outside the throw-away guest");
      System.exit(2);
    }
    Vertx vertx = RdmaTestSupport.nativeVertx();
    Loopback pair = Loopback.open(vertx, new ConnectionOptions());
    Promise<Throwable> lost = Promise.promise();
    pair.client.closeHandler(lost::complete);
    WriteWindow writes = WriteWindow.start(pair.client, pair.remote, pair.clientRegion, 64, 1024);
    await(writes.busy());

    new ProcessBuilder("rdma", "link", "delete", "rxe0").inheritIO().start();

    Throwable why = await(lost.future());
    check(why instanceof RpmaConnectionClosedException,
        "the connection reports its loss: " + why.getMessage());
    List<Future<Void>> all = writes.issued();
    await(Future.join(all).otherwiseEmpty());
    check(all.stream().allMatch(Future::isComplete),
        "every write in flight completed (" + all.size() + " writes, "
            + all.stream().filter(Future::failed).count() + " failed)");
    double cpu = loopCpuShare(pair.client);
    check(cpu < 0.5, String.format("the loop does not spin on the dead fds (CPU share %.2f)", cpu));
    boolean timerFired = await(Future.<Boolean>future(p ->
        pair.client.context().owner().setTimer(10, t -> p.complete(true))));
    check(timerFired, "the loop still serves other work (a timer fired)");
    Throwable after = Await.awaitFailure(
        pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));
    check(after instanceof RpmaConnectionClosedException,
        "a new operation fails at once: " + after);
    System.exit(failures == 0 ? 0 : 1);
  }

  /** CPU time the connection's event-loop thread spends over a second of wall time. */
  static double loopCpuShare(RpmaConnection conn) throws InterruptedException {
    long id = RdmaTestSupport.onLoop(conn, () -> Thread.currentThread().getId());
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.getThreadCpuTime(id);
    long wall0 = System.nanoTime();
    Thread.sleep(1000);
    return (double) (threads.getThreadCpuTime(id) - cpu0) / (System.nanoTime() - wall0);
  }
}
