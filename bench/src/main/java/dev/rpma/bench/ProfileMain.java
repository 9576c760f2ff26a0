package dev.rpma.bench;

import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.Recording;

/**
 * Where a design's event-loop thread spends its time, by JFR sampling ({@code ./dev bench
 * --profile}, scripts/bench-profile.sh): the fixture of BenchMain (the library and the thread-hop
 * design, one connection each) and the library's variants (io_uring, metrics on, hybrid
 * polling: {@link Variants}), warmed up until the JIT is quiet, then each profiled scenario
 * run for each design under a recording of its own: Java samples every 1 ms (where the thread
 * was running Java code) and native samples (which native method it was in).
 * {@link ProfileSummary} sorts the samples into the rooms of the path (Netty's loop, Vert.x,
 * the library's engine, its natives, the harness) and writes one table per scenario and design.
 *
 * <pre>  ProfileMain [BenchConfig's options] --profile-dir DIR</pre>
 *
 * <p>Run unpinned (both vCPUs): JFR's sampler is a thread of the same JVM, and on the loop's
 * one vCPU it would only run, and so only sample, while the loop is off the CPU (blocked in
 * epoll_wait, or preempted), which hides the loop's running time. Not part of the timed bench:
 * a recording adds its own sampling work.
 */
public final class ProfileMain {

  /** The scenarios profiled: 64 B latency (read, write) and a window of 64 writes. */
  static final List<Scenario> SCENARIOS = List.of(Scenario.latency(Op.WRITE, 64),
      Scenario.latency(Op.READ, 64), Scenario.throughput(64));

  private ProfileMain() {
  }

  /** Exits 0 when every scenario was profiled, 1 otherwise. */
  public static void main(String[] args) {
    int status = 1;
    try {
      int at = List.of(args).indexOf("--profile-dir");
      if (at < 0 || at + 1 >= args.length) {
        throw new IllegalArgumentException("usage: ProfileMain [BenchMain's options]"
            + " --profile-dir DIR");
      }
      Path dir = Path.of(args[at + 1]);
      String[] rest = new String[args.length - 2];
      System.arraycopy(args, 0, rest, 0, at);
      System.arraycopy(args, at + 2, rest, at, args.length - at - 2);
      profile(BenchConfig.parse(rest), dir);
      status = 0;
    } catch (Throwable t) {
      System.err.print("bench: profile failed: ");
      t.printStackTrace();
    } finally {
      System.exit(status);
    }
  }

  private static void profile(BenchConfig config, Path dir) throws Exception {
    Files.createDirectories(dir);
    try (Fixture fixture = Fixture.open(config); Variants variants = Variants.open(config);
        PrintStream summary = new PrintStream(dir.resolve("summary.md").toFile(), "UTF-8")) {
      List<Driver> drivers = new ArrayList<>(List.of(fixture.library, fixture.threadHop));
      drivers.addAll(variants.drivers());
      WarmUp.untilJitQuiet(config, () -> WarmUp.round(config, drivers, SCENARIOS::contains));
      summary.println("# Where the event-loop thread's time goes (JFR samples, 1 ms)\n");
      for (Scenario s : SCENARIOS) {
        for (Driver d : drivers) {
          Path file = dir.resolve(d.name() + "-" + s.toString().replace(' ', '-') + ".jfr");
          RunResult r = recorded(config, d, s, file);
          long ops = r.ops();
          summary.println(ProfileSummary.of(file, threadsOf(d), d.name() + ", " + s, ops,
              r.elapsedNanos()).markdown());
          System.err.printf(Locale.ROOT, "bench: profiled %s %s: %d operations%n", d.name(),
              s, ops);
        }
      }
    }
  }

  /** One measured run of {@code s} by {@code d}, recorded into {@code file}. */
  private static RunResult recorded(BenchConfig config, Driver d, Scenario s, Path file)
      throws IOException, InterruptedException {
    Jit.awaitIdleOrWarn();
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(1));
      recording.start();
      RunResult r = Fixture.await(s.isLatency()
          ? LatencyRun.run(d, s.op(), s.size(), config.latencyOps)
          : ThroughputRun.run(d, s.window(), s.size(), config.throughputNanos()));
      recording.stop();
      recording.dump(file);
      return r;
    }
  }

  /**
   * The design's threads: its event loop (by id: each Vert.x of the variants names its loops
   * alike), and the thread-hop design's waiting thread (by name).
   */
  private static ProfileSummary.Threads threadsOf(Driver d) {
    long loop = Fixture.await(Fixture.onContext((ContextInternal) d.context(),
        () -> Future.succeededFuture(Thread.currentThread().getId())));
    return d instanceof ThreadHopConnection
        ? new ProfileSummary.Threads(2, t -> t.getJavaThreadId() == loop
            || ThreadHopConnection.WAITER_NAME.equals(t.getJavaName()))
        : new ProfileSummary.Threads(1, t -> t.getJavaThreadId() == loop);
  }
}
