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

  /**
   * What the fds {@link #rdmaFds} counts point to, counted by target ("/dev/infiniband/rdma_cm
   * x2, anon_inode:[eventfd] x5"): for a failure message, to tell a connection's fds (a CM
   * channel, a completion channel, an eventfd) from another eventfd of the process.
   */
  static String rdmaFdTargets() {
    java.util.Map<String, Integer> counted = new java.util.TreeMap<>();
    java.io.File[] fds = new java.io.File("/proc/self/fd").listFiles();
    for (java.io.File fd : fds == null ? new java.io.File[0] : fds) {
      try {
        String target = java.nio.file.Files.readSymbolicLink(fd.toPath()).toString();
        if (target.contains("infiniband") || target.contains("rdma")
            || target.contains("eventfd")) {
          counted.merge(target, 1, Integer::sum);
        }
      } catch (java.io.IOException e) {
        // closed while listing
      }
    }
    StringBuilder out = new StringBuilder();
    counted.forEach((target, n) -> out.append(out.isEmpty() ? "" : ", ").append(target)
        .append(" x").append(n));
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
