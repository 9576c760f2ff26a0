package dev.rpma.vertx.internal;

import dev.rpma.vertx.impl.ProcStatus;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;

/**
 * What this process holds of what connections cost besides CPU, from /proc: the library's
 * limit messages, the bench's per-connection figures and the tests' leak checks read it.
 */
public final class ProcessUse {

  private ProcessUse() {
  }

  /**
   * Open fds of the kinds a connection uses: device files (/dev/infiniband/...), completion and
   * event channels (anon inodes of the verbs and rdma_cm drivers) and eventfds (the drain's
   * continuation). Unlike the total, not disturbed by pipes to child processes or the JVM's
   * own files. -1 if /proc cannot tell.
   */
  public static long rdmaFds() {
    Map<String, Integer> targets = rdmaFdTargets();
    return targets == null ? -1 : targets.values().stream().mapToLong(Integer::longValue).sum();
  }

  /**
   * The fds {@link #rdmaFds} counts, by what they point to ("/dev/infiniband/rdma_cm",
   * "anon_inode:[eventfd]"), in target order; null if /proc cannot tell. For a leak check's
   * message: a connection's fds (a CM channel, a completion channel, an eventfd) told from
   * another eventfd of the process.
   */
  public static Map<String, Integer> rdmaFdTargets() {
    File[] fds = new File("/proc/self/fd").listFiles();
    if (fds == null) {
      return null;
    }
    Map<String, Integer> counted = new TreeMap<>();
    for (File fd : fds) {
      try {
        String target = Files.readSymbolicLink(fd.toPath()).toString();
        if (target.contains("infiniband") || target.contains("rdma")
            || target.contains("eventfd")) {
          counted.merge(target, 1, Integer::sum);
        }
      } catch (IOException e) {
        // closed while listing: not ours to count
      }
    }
    return counted;
  }

  /** A "Name: N kB" field of /proc/self/status (VmRSS:, VmPin:) in KiB; -1 if unknown. */
  public static long statusKib(String field) {
    return ProcStatus.kib(field);
  }
}
