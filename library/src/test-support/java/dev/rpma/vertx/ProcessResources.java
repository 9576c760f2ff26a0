package dev.rpma.vertx;

import dev.rpma.vertx.internal.ProcessUse;
import java.nio.file.Path;
import java.util.Objects;

/** This process's open fds and resident memory, from /proc, for leak checks. */
final class ProcessResources {

  private ProcessResources() {
  }

  static int openFds() {
    return Objects.requireNonNull(Path.of("/proc/self/fd").toFile().list()).length;
  }

  /** What the fds {@link #rdmaFds} counts point to, counted by target, for a failure message. */
  static String rdmaFdTargets() {
    java.util.Map<String, Integer> counted = ProcessUse.rdmaFdTargets();
    StringBuilder out = new StringBuilder();
    if (counted != null) {
      counted.forEach((target, n) -> out.append(out.isEmpty() ? "" : ", ").append(target)
          .append(" x").append(n));
    }
    return out.toString();
  }

  /** Open fds of the kinds a connection uses (ProcessUse.rdmaFds). */
  static long rdmaFds() {
    return ProcessUse.rdmaFds();
  }

  /**
   * Resident memory outside the Java heap, in KiB: VmRSS minus the heap the JVM has committed,
   * so that the heap growing to its working size does not pass for a native leak.
   */
  static long residentOutsideHeapKib() {
    long heap = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
        .getCommitted();
    return residentKib() - heap / 1024;
  }

  /** VmRSS in KiB. */
  static long residentKib() {
    return statusKib("VmRSS:");
  }

  /** VmPin in KiB: memory pinned for the device (registered regions). */
  static long pinnedKib() {
    return statusKib("VmPin:");
  }

  private static long statusKib(String field) {
    long kib = ProcessUse.statusKib(field);
    if (kib < 0) {
      throw new IllegalStateException("no " + field + " in /proc/self/status");
    }
    return kib;
  }
}
