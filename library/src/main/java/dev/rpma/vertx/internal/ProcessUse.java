package dev.rpma.vertx.internal;

import dev.rpma.vertx.impl.ProcStatus;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

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
    File[] fds = new File("/proc/self/fd").listFiles();
    if (fds == null) {
      return -1;
    }
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

  /** A "Name: N kB" field of /proc/self/status (VmRSS:, VmPin:) in KiB; -1 if unknown. */
  public static long statusKib(String field) {
    return ProcStatus.kib(field);
  }
}
