package dev.rpma.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * One recording of {@link ProfileMain}, sorted: the Java samples of the design's threads (its
 * event loop, the thread-hop design's waiting thread) by the room of the path their innermost
 * non-JDK frame belongs to, and their native samples by native method.
 *
 * <p>JFR samples at most a few threads per period, and only one in native code: a thread's
 * native samples are shared with every other thread sitting in native code (idle loops in
 * epoll_wait), so they tell what a thread did in native code, not for how long. Java samples of
 * a busy thread are taken every period, so Java samples / operations is about the Java time per
 * operation in milliseconds.
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
  private final Map<String, Integer> javaByRoom = new TreeMap<>();
  private final Map<String, Integer> nativeByMethod = new TreeMap<>();
  private final Map<String, Integer> javaByFrame = new TreeMap<>();
  private int javaSamples;
  private int nativeSamples;

  private ProfileSummary(String title, long ops) {
    this.title = title;
    this.ops = ops;
  }

  /** The samples of {@code threads} (by name) in {@code recording}. */
  static ProfileSummary of(Path recording, Set<String> threads, String title, long ops)
      throws IOException {
    ProfileSummary s = new ProfileSummary(title, ops);
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      boolean java = e.getEventType().getName().equals("jdk.ExecutionSample");
      String thread = e.getThread("sampledThread").getJavaName();
      RecordedStackTrace stack = e.getStackTrace();
      if (stack == null || thread == null || !threads.contains(thread)) {
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

  /** A section: Java samples by room (with ms per 1000 operations), then the top frames. */
  String markdown() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "## %s%n%n%d operations; %d Java samples (%.1f us of"
        + " Java per operation), %d native samples%n%n", title, ops, javaSamples,
        perOpMicros(javaSamples), nativeSamples));
    b.append("| Room (Java samples) | samples | share | us per operation |\n|---|---|---|---|\n");
    sorted(javaByRoom).forEach((room, n) -> b.append(String.format(Locale.ROOT,
        "| %s | %d | %.0f%% | %.1f |%n", room, n, 100.0 * n / javaSamples, perOpMicros(n))));
    b.append("\n| Innermost Java frame (top 12) | samples |\n|---|---|\n");
    sorted(javaByFrame).entrySet().stream().limit(12).forEach(e ->
        b.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" |\n"));
    b.append("\n| Native method (its share of the thread's native samples) | samples | share |\n"
        + "|---|---|---|\n");
    sorted(nativeByMethod).entrySet().stream().limit(8).forEach(e ->
        b.append(String.format(Locale.ROOT, "| %s | %d | %.0f%% |%n", e.getKey(),
            e.getValue(), 100.0 * e.getValue() / nativeSamples)));
    return b.toString();
  }

  /** One sample is about 1 ms of the thread in Java: samples / ops, in microseconds. */
  private double perOpMicros(int samples) {
    return ops > 0 ? samples * 1000.0 / ops : 0;
  }

  private static Map<String, Integer> sorted(Map<String, Integer> counts) {
    Map<String, Integer> out = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }
}
