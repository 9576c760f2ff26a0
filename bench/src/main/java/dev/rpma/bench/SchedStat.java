package dev.rpma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the kernel's scheduler saw of the calling thread and the machine: a thread's time on the
 * CPU and waiting for it on a run queue ({@code /proc/thread-self/schedstat}), and the CPUs' time
 * in interrupts and softirqs ({@code /proc/stat}). Under Soft-RoCE the "NIC" is kernel code on
 * the same vCPU, so a loop thread that waits for the CPU is waiting for the emulated device's
 * work: the loop probe reports these beside its lateness so that the two can be told apart.
 * Figures are -1 where the kernel does not say.
 */
record SchedStat(long runNanos, long waitNanos, long slices, long irqTicks, long wallNanos) {

  /** Clock ticks per second of /proc/stat (USER_HZ: 100 on Linux, whatever HZ is). */
  private static final long USER_HZ = 100;

  /** Now, for the calling thread. */
  static SchedStat now() {
    return of(Path.of("/proc/thread-self/schedstat"));
  }

  /** Now, for the thread whose schedstat file is {@code file} (/proc/self/task/TID/...). */
  static SchedStat of(Path file) {
    long run = -1;
    long wait = -1;
    long slices = -1;
    try {
      String[] f = Files.readString(file).trim().split("\\s+");
      run = Long.parseLong(f[0]);
      wait = Long.parseLong(f[1]);
      slices = Long.parseLong(f[2]);
    } catch (IOException | RuntimeException e) {
      // not Linux, or schedstats off: -1
    }
    return new SchedStat(run, wait, slices, readIrqTicks(), System.nanoTime());
  }

  /** irq + softirq ticks of all CPUs (the "cpu" line's 6th and 7th values). */
  private static long readIrqTicks() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
        if (line.startsWith("cpu ")) {
          String[] f = line.trim().split("\\s+");
          return Long.parseLong(f[6]) + Long.parseLong(f[7]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // -1 below
    }
    return -1;
  }

  /** The share of {@code since}..this in each state, as report fields (per mille of the wall). */
  Map<String, Long> since(SchedStat since) {
    long wall = Math.max(1, wallNanos - since.wallNanos);
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("loop_run_permille", share(runNanos, since.runNanos, wall));
    m.put("loop_runqueue_wait_permille", share(waitNanos, since.waitNanos, wall));
    m.put("loop_timeslices", slices < 0 || since.slices < 0 ? -1 : slices - since.slices);
    m.put("irq_softirq_permille", irqTicks < 0 || since.irqTicks < 0 ? -1
        : (irqTicks - since.irqTicks) * (1_000_000_000L / USER_HZ) * 1000 / wall);
    return m;
  }

  private static long share(long now, long before, long wall) {
    return now < 0 || before < 0 ? -1 : (now - before) * 1000 / wall;
  }
}
