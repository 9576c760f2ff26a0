package dev.rpma.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * One recording of {@link ProfileMain}, sorted: the Java samples of the design's threads (its
 * event loop, the thread-hop design's waiting thread) by the room of the path their innermost
 * non-JDK frame belongs to, and their native samples by native method; each as microseconds
 * per operation of the profiled run.
 *
 * <p>How samples become time. JFR samples in rounds: each round takes every thread that is
 * running Java code (up to a few) and ONE thread that is in native code, in turn; on the
 * emulator a round takes longer than the 1 ms asked for, so the count of samples says nothing
 * by itself. Some thread is always in native code (the idle event loops wait in epoll_wait), so
 * every round leaves exactly one native sample: the native samples of all threads count the
 * rounds. A design thread's Java samples over the rounds is the share of the run's time it was
 * running Java; times the run's time per operation, Java microseconds per operation. The rest
 * of its time is native (running a native method, or blocked in one: epoll_wait): its native
 * samples, which rotate among the threads in native code, split that rest by method.
 */
final class ProfileSummary {

  /** Package prefixes to rooms; the first that matches the innermost non-JDK frame wins. */
  private static final Map<String, String> ROOMS = new LinkedHashMap<>();

  static {
    ROOMS.put("dev.rpma.bench.", "bench harness (timing, posting the next operation)");
    ROOMS.put("dev.rpma.vertx.impl.engine.", "library engine (drain, pending table, flow, post)");
    ROOMS.put("dev.rpma.vertx.impl.jni.", "library JNI wrappers (decoding, arguments)");
    ROOMS.put("dev.rpma.vertx.", "library API (checks, regions, hop to the loop)");
    ROOMS.put("io.vertx.", "Vert.x (context dispatch, Future, listeners)");
    ROOMS.put("io.netty.", "Netty (the loop, readiness dispatch)");
  }

  private final String title;
  private final long ops;
  private final long elapsedNanos;
  /** How many threads the design has (their time adds up). */
  private final int threadCount;
  /** Sampling rounds: native samples of every thread. */
  private int rounds;
  private final Map<String, Integer> javaByRoom = new TreeMap<>();
  private final Map<String, Integer> nativeByMethod = new TreeMap<>();
  private final Map<String, Integer> javaByFrame = new TreeMap<>();
  private int javaSamples;
  private int nativeSamples;

  private ProfileSummary(String title, int threadCount, long ops, long elapsedNanos) {
    this.title = title;
    this.threadCount = threadCount;
    this.ops = ops;
    this.elapsedNanos = elapsedNanos;
  }

  /** A design's threads: how many, and which samples are theirs. */
  record Threads(int count, Predicate<RecordedThread> includes) {
  }

  /**
   * The samples of {@code threads} in {@code recording} of a run of {@code ops} operations that
   * took {@code elapsedNanos}.
   */
  static ProfileSummary of(Path recording, Threads threads, String title, long ops,
      long elapsedNanos) throws IOException {
    ProfileSummary s = new ProfileSummary(title, threads.count(), ops, elapsedNanos);
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      boolean java = e.getEventType().getName().equals("jdk.ExecutionSample");
      if (!java) {
        s.rounds++;
      }
      RecordedThread thread = e.getThread("sampledThread");
      RecordedStackTrace stack = e.getStackTrace();
      if (stack == null || thread == null || !threads.includes().test(thread)) {
        continue;
      }
      if (java) {
        s.javaSamples++;
        s.javaByRoom.merge(room(stack.getFrames()), 1, Integer::sum);
        s.javaByFrame.merge(frame(stack.getFrames().get(0)), 1, Integer::sum);
      } else {
        s.nativeSamples++;
        s.nativeByMethod.merge(frame(stack.getFrames().get(0)), 1, Integer::sum);
      }
    }
    return s;
  }

  private static String room(List<RecordedFrame> frames) {
    for (RecordedFrame f : frames) {
      String type = f.getMethod().getType().getName();
      if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")) {
        continue;
      }
      for (Map.Entry<String, String> r : ROOMS.entrySet()) {
        if (type.startsWith(r.getKey())) {
          return r.getValue();
        }
      }
      return "other: " + type;
    }
    return "JDK only";
  }

  private static String frame(RecordedFrame f) {
    String type = f.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
  }

  /** A section: Java time by room, the top Java frames, native time by method. */
  String markdown() {
    StringBuilder b = new StringBuilder();
    double perOp = ops > 0 ? elapsedNanos / 1e3 / ops : 0;
    double javaShare = rounds > 0 ? (double) javaSamples / rounds : 0;
    b.append(String.format(Locale.ROOT, "## %s%n%n%d operations, %.1f us each (this run, under"
        + " the profiler); %d sampling rounds; the design's threads ran Java in %d of them"
        + " (%.0f%%: %.1f us of Java per operation)%n%n", title, ops, perOp, rounds,
        javaSamples, 100 * javaShare, javaShare * perOp));
    b.append("| Room (Java) | samples | us per operation |\n|---|---|---|\n");
    sorted(javaByRoom).forEach((room, n) -> b.append(String.format(Locale.ROOT,
        "| %s | %d | %.1f |%n", room, n, share(n) * perOp)));
    b.append("\n| Innermost Java frame (top 12) | samples |\n|---|---|\n");
    sorted(javaByFrame).entrySet().stream().limit(12).forEach(e ->
        b.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" |\n"));
    b.append("\n| Native method (running or blocked in it) | samples | us per operation |\n"
        + "|---|---|---|\n");
    double nativePerOp = (threadCount - javaShare) * perOp; // the threads' time, less Java
    sorted(nativeByMethod).entrySet().stream().limit(8).forEach(e ->
        b.append(String.format(Locale.ROOT, "| %s | %d | %.1f |%n", e.getKey(), e.getValue(),
            nativeSamples > 0 ? nativePerOp * e.getValue() / nativeSamples : 0)));
    return b.toString();
  }

  /** The share of the run's time that {@code samples} Java samples stand for. */
  private double share(int samples) {
    return rounds > 0 ? (double) samples / rounds : 0;
  }

  private static Map<String, Integer> sorted(Map<String, Integer> counts) {
    Map<String, Integer> out = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }
}
