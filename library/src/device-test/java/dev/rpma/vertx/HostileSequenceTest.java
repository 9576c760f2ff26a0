package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Vertx;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of public calls with hostile arguments, on the device: loopback, wildcard
 * and unassigned addresses, ports, sizes, offsets and private data at and past every limit,
 * closed objects and other peers' regions, calls from plain threads, other loops and a worker,
 * closes inside callbacks (HostileSteps). After each sequence, with everything closed:
 * <ul>
 *   <li>the JVM lives on (a native crash would end the suite here);</li>
 *   <li>every Future the API handed out has completed, exactly once;</li>
 *   <li>every failure and throw is an {@link RpmaException}, an IllegalArgumentException or an
 *       IllegalStateException, with a message; no exception reached Vert.x unhandled, or only
 *       a log (a loop's task that threw); no close handler ran twice;</li>
 *   <li>the RDMA fds, and every other fd but the class path's jars, are back where they were
 *       after a first sequence with no steps (librdmacm keeps a device context open).</li>
 * </ul>
 * A short run in the device suite; {@code RPMA_HOSTILE_TRIES=5000} for a long one. Sequence k of
 * a run uses seed {@code RPMA_HOSTILE_SEED + k}; both are printed, and
 * {@code RPMA_HOSTILE_SEED=S RPMA_HOSTILE_TRIES=1} replays sequence S alone.
 */
@Tag("rdma")
class HostileSequenceTest {

  static final String TRIES_VARIABLE = "RPMA_HOSTILE_TRIES";
  static final String SEED_VARIABLE = "RPMA_HOSTILE_SEED";
  static final String STEPS_VARIABLE = "RPMA_HOSTILE_STEPS";
  /** The device suite's short run: a few dozen sequences (about 0.5 s each on the guest). */
  static final int SHORT_TRIES = 48;
  static final int MAX_STEPS = 16;
  /** How long Futures and fds may take to settle once everything is closed (slow guest). */
  static final long SETTLE_MILLIS = 60_000;

  @Test
  void hostileCallSequencesLeaveTheJvmTheirFuturesAndTheFdsWhole() throws InterruptedException {
    String ip = RdmaTestSupport.deviceIp();
    long seed = seed();
    int tries = tries();
    System.out.printf("HostileSequenceTest: seed %d, %d sequences (replay: %s=%d %s=%d; "
        + "sequence k uses seed %d + k)%n", seed, tries, SEED_VARIABLE, seed, TRIES_VARIABLE,
        tries, seed);
    Vertx vertx = RdmaTestSupport.nativeVertx();
    List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(unhandled::add);
    try (HostileLogWatch logs = HostileLogWatch.start()) {
      HostileCallers callers = HostileCallers.start(vertx);
      // what the JVM, Vert.x and librdmacm open once and keep (a device context, a resolver,
      // jars) is opened by a sequence with no steps before the fds are counted
      HostileWorld warmUp = run(vertx, ip, callers, seed, 0);
      List<String> logged = logs.drain();
      if (!warmUp.ledger.violations().isEmpty() || !unhandled.isEmpty() || !logged.isEmpty()) {
        fail(report(seed, warmUp, warmUp.ledger.violations()) + "\nunhandled: " + unhandled
            + "\nlogged: " + logged);
      }
      long rdmaFds = ProcessResources.rdmaFds();
      Map<String, Integer> fds = fdTargets();
      for (int k = 0; k < tries; k++) {
        long sequenceSeed = seed + k;
        // the last line before a crash names the sequence to replay
        System.out.printf("HostileSequenceTest: sequence %d, seed %d%n", k, sequenceSeed);
        HostileWorld world = run(vertx, ip, callers, sequenceSeed, stepLimit());
        System.out.printf("HostileSequenceTest: sequence %d: %d calls, %s%n", k,
            world.log.size(), world.ledger.summary());
        List<String> broken = new ArrayList<>(world.ledger.violations());
        for (Throwable e : unhandled) {
          broken.add("an exception reached Vert.x unhandled: " + e + HostileLedger.stackTop(e));
        }
        unhandled.clear();
        broken.addAll(logs.drain());
        if (!settled(() -> ProcessResources.rdmaFds() == rdmaFds && fdTargets().equals(fds))) {
          broken.add("fds not back: RDMA fds " + ProcessResources.rdmaFds() + ", " + rdmaFds
              + " before; fds opened (+) and closed (-) since: " + difference(fds, fdTargets()));
        }
        if (!broken.isEmpty()) {
          fail(report(sequenceSeed, world, broken));
        }
      }
      System.out.printf("HostileSequenceTest: %d sequences passed (seed %d)%n", tries, seed);
    } finally {
      await(vertx.close());
    }
  }

  /** One sequence: the set-up, its steps, everything closed, the Futures given time to end. */
  static HostileWorld run(Vertx vertx, String ip, HostileCallers callers, long seed,
      int maxSteps) throws InterruptedException {
    Random random = new Random(seed);
    HostileValues values = new HostileValues(random, ip);
    HostileWorld world = new HostileWorld(vertx, ip, new HostileLedger(), callers, values);
    world.setUp();
    HostileSteps steps = new HostileSteps(world);
    int count = maxSteps == 0 ? 0 : Math.min(1 + random.nextInt(MAX_STEPS), maxSteps);
    for (int i = 0; i < count; i++) {
      steps.step();
    }
    // twice: what a step's Future made while the first pass ran (a peer, a connection) is
    // closed by the second
    for (int pass = 0; pass < 2; pass++) {
      world.closeAll();
      // completed and called back: a Future's callbacks run after it completes, on its context
      settled(() -> world.ledger.neverCalledBack().isEmpty());
    }
    for (String what : world.ledger.pending()) {
      world.ledger.violation(what + ": not completed " + SETTLE_MILLIS / 1000
          + " s after everything was closed");
    }
    List<String> pending = world.ledger.pending();
    for (String what : world.ledger.neverCalledBack()) {
      if (pending.contains(what)) {
        continue;
      }
      world.ledger.violation(what + ": completed, but its callbacks never ran");
    }
    return world;
  }

  private static String report(long seed, HostileWorld world, List<String> broken) {
    StringBuilder s = new StringBuilder("sequence seed " + seed + " (replay alone: "
        + SEED_VARIABLE + "=" + seed + " " + TRIES_VARIABLE + "=1) broke the contract:");
    broken.forEach(b -> s.append("\n  - ").append(b));
    s.append("\nits steps (").append(world.ledger.tracked()).append(" Futures):");
    world.log.forEach(step -> s.append("\n  ").append(step));
    return s.toString();
  }

  private static boolean settled(Await.Condition condition) {
    return Await.holdsWithin(Duration.ofMillis(SETTLE_MILLIS), condition);
  }


  /** What each open fd is, counted, but the class path's jars (opened once, as classes load). */
  private static Map<String, Integer> fdTargets() {
    Map<String, Integer> targets = new TreeMap<>();
    File[] fds = new File("/proc/self/fd").listFiles();
    for (File fd : fds == null ? new File[0] : fds) {
      try {
        String target = Files.readSymbolicLink(fd.toPath()).toString();
        if (!target.endsWith(".jar")) {
          // socket:[123], anon_inode:[eventfd]: the kind, not the inode
          targets.merge(target.replaceAll(":\\[[0-9]+\\]$", ""), 1, Integer::sum);
        }
      } catch (IOException e) {
        // closed while listing
      }
    }
    return targets;
  }

  private static String difference(Map<String, Integer> before, Map<String, Integer> after) {
    StringBuilder s = new StringBuilder();
    Set<String> kinds = new TreeSet<>(before.keySet());
    kinds.addAll(after.keySet());
    for (String kind : kinds) {
      int d = after.getOrDefault(kind, 0) - before.getOrDefault(kind, 0);
      if (d != 0) {
        s.append(String.format(" %+d %s", d, kind));
      }
    }
    return s.toString();
  }

  private static long seed() {
    String given = System.getenv(SEED_VARIABLE);
    return given == null || given.isBlank() ? new Random().nextLong() : Long.parseLong(given.trim());
  }

  /** RPMA_HOSTILE_STEPS=N: each sequence cut after its first N steps (to shrink one by hand). */
  private static int stepLimit() {
    String given = System.getenv(STEPS_VARIABLE);
    return given == null || given.isBlank() ? MAX_STEPS : Integer.parseInt(given.trim());
  }

  private static int tries() {
    String given = System.getenv(TRIES_VARIABLE);
    return given == null || given.isBlank() ? SHORT_TRIES : Integer.parseInt(given.trim());
  }
}
