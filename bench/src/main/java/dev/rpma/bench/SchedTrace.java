package dev.rpma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The kernel's scheduler events (ftrace: sched_switch, sched_wakeup, softirqs) over a stretch
 * of a probe, to see who held the one vCPU while a loop thread waited for it. Root in the test
 * bed's guest only: tracefs is mounted if it is not.
 */
final class SchedTrace {

  private static final Path TRACING = Path.of("/sys/kernel/tracing");

  private SchedTrace() {
  }

  static void start() throws IOException, InterruptedException {
    if (!Files.exists(TRACING.resolve("tracing_on"))) {
      new ProcessBuilder("mount", "-t", "tracefs", "nodev", TRACING.toString()).inheritIO()
          .start().waitFor();
    }
    write("tracing_on", "0");
    write("trace", "");
    write("buffer_size_kb", "16384");
    write("set_event", "sched:sched_switch sched:sched_wakeup sched:sched_waking"
        + " irq:softirq_entry irq:softirq_exit");
    write("tracing_on", "1");
  }

  static void stopInto(Path out) throws IOException {
    write("tracing_on", "0");
    Files.copy(TRACING.resolve("trace"), out, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void write(String file, String value) throws IOException {
    Files.writeString(TRACING.resolve(file), value);
  }
}
