package dev.rpma.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * CPU time used so far, or over a run (see {@link #since}): what the closer-to-the-floor
 * question asks after latency and throughput, the CPU a design spends per operation. Taken at
 * the same two moments as the run's clock (its first post, its last completion), so the CPU
 * figures cover exactly the interval of the latency and throughput figures.
 *
 * <p>Three figures, since a design's work is not all on one thread:
 *
 * @param loopNanos the driver's event-loop thread (the thread that calls {@link #now})
 * @param designNanos the loop thread plus the design's own threads ({@link
 *     Driver#ownThreads()}: the thread-hop design's waiting thread); the library has none, so
 *     for it this equals {@code loopNanos}. The C reference's counterpart is its one polling
 *     thread.
 * @param processNanos the whole JVM (every thread, user and system time), as the C reference
 *     reports its process; -1 where the JVM cannot tell. Read through {@code
 *     OperatingSystemMXBean}, which counts in clock ticks (10 ms): good to a percent or two over
 *     a run of a second or more.
 */
record CpuTime(long loopNanos, long designNanos, long processNanos) {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  static {
    // on by default in HotSpot; a JVM that can measure it but has it off is switched on
    if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
      THREADS.setThreadCpuTimeEnabled(true);
    }
  }

  /** Call on the driver's event-loop thread: that is the thread measured as the loop. */
  static CpuTime now(Driver driver) {
    long loop = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    long design = loop;
    for (Thread t : driver.ownThreads()) {
      long own = THREADS.getThreadCpuTime(t.getId()); // -1 once the thread has ended
      design = design < 0 || own < 0 ? -1 : design + own;
    }
    long process = OS instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
    return new CpuTime(loop, design, process);
  }

  /** The CPU used since {@code before}; -1 for a figure either end could not read. */
  CpuTime since(CpuTime before) {
    return new CpuTime(minus(loopNanos, before.loopNanos),
        minus(designNanos, before.designNanos), minus(processNanos, before.processNanos));
  }

  private static long minus(long after, long before) {
    return after < 0 || before < 0 ? -1 : after - before;
  }
}
