package dev.rpma.vertx;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
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
   * Open fds of the kinds a connection uses: device files (/dev/infiniband/...), completion and
   * event channels (anon inodes of the verbs and rdma_cm drivers) and eventfds (the drain's
   * continuation). Unlike the total, not disturbed by pipes to child processes or the JVM's
   * own files.
   */
  static long rdmaFds() {
    File[] fds = Objects.requireNonNull(new File("/proc/self/fd").listFiles());
    long count = 0;
    for (File fd : fds) {
      try {
        String target = Files.readSymbolicLink(fd.toPath()).toString();
        if (target.contains("infiniband") || target.contains("rdma")
            || target.contains("eventfd")) {
          count++;
        }
      } catch (IOException e) {
        // closed while listing: not ours to count
      }
    }
    return count;
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
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException("no " + field + " in /proc/self/status");
  }
}
