package dev.rpma.bench;

import dev.rpma.vertx.internal.ProcessUse;
import java.lang.management.ManagementFactory;

/** This process's fds and memory: what a connection costs besides CPU. */
final class ProcFs {

  private ProcFs() {
  }

  /** RDMA device files and channels and eventfds (ProcessUse.rdmaFds). */
  static long rdmaFds() {
    return ProcessUse.rdmaFds();
  }

  static long residentKib() {
    return ProcessUse.statusKib("VmRSS:");
  }

  static long committedHeapKib() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1024;
  }

  static long statusKib(String field) {
    return ProcessUse.statusKib(field);
  }
}
