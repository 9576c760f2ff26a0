package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connect, write, close, many times: fds and native memory stay flat. 1,000 cycles; fewer
 * (RPMA_CYCLES) when a quick run is wanted.
 *
 * <p>The cycles run in a JVM of their own (CyclesMain) whose heap is fixed and touched up
 * front, so that its resident size moves only with memory outside the heap: measured as the
 * suite JVM's RSS minus its committed heap, a young generation first touching pages it had
 * already committed looked like a 9 MiB leak over 500 cycles in one run of CI.
 */
@Tag("rdma")
class CyclesTest {

  /** Allowed growth of the resident size over all cycles: JIT code and malloc arenas settle. */
  private static final long RSS_BOUND_KIB = 32 * 1024;
  /**
   * Allowed growth over the second half: by then malloc arenas and JIT code have settled, while
   * a leak grows as much as in the first half; 8 MiB over 500 cycles would be 16 KiB per
   * connection.
   */
  private static final long SECOND_HALF_BOUND_KIB = 8 * 1024;

  @Test
  void connectCloseCyclesLeakNoFdAndNoNativeMemory() throws Exception {
    int cycles = Integer.parseInt(System.getenv().getOrDefault("RPMA_CYCLES", "1000"));
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch",
        "-D" + RdmaTestSupport.TRANSPORT_PROPERTY + "=" + RdmaTestSupport.transport(),
        "-cp", ChildProcess.testClassPath(), CyclesMain.class.getName(),
        Integer.toString(cycles), Integer.toString(RdmaTestSupport.nextPort()));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(Await.SECONDS, TimeUnit.SECONDS), out);
    String line = out.lines().filter(l -> l.startsWith("CYCLES ")).findFirst()
        .orElseThrow(() -> new AssertionError("CyclesMain printed no result:\n" + out));
    String[] f = line.split(" ");
    long fdsBefore = Long.parseLong(f[1]);
    long fdsAfter = Long.parseLong(f[2]);
    long rssBefore = Long.parseLong(f[3]);
    long rssHalfway = Long.parseLong(f[4]);
    long rssAfter = Long.parseLong(f[5]);
    System.out.printf("%d cycles: RDMA fds %d -> %d, VmRSS %d -> %d -> %d KiB%n", cycles,
        fdsBefore, fdsAfter, rssBefore, rssHalfway, rssAfter);

    assertEquals(fdsBefore, fdsAfter, "no RDMA fd leaked over " + cycles + " cycles");
    assertTrue(rssAfter - rssHalfway < SECOND_HALF_BOUND_KIB, "resident memory still grew by "
        + (rssAfter - rssHalfway) + " KiB over the second half (bound " + SECOND_HALF_BOUND_KIB
        + "): a leak");
    assertTrue(rssAfter - rssBefore < RSS_BOUND_KIB, "resident memory grew by "
        + (rssAfter - rssBefore) + " KiB over " + cycles + " cycles (bound " + RSS_BOUND_KIB
        + ")");
  }
}
