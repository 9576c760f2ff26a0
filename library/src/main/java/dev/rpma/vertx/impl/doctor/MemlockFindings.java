package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.ok;
import static dev.rpma.vertx.impl.doctor.Findings.problem;
import static dev.rpma.vertx.impl.doctor.Findings.warning;

import dev.rpma.vertx.DoctorFinding;
import java.nio.file.Path;

/**
 * Check "memlock": registering pins memory, and without CAP_IPC_LOCK the pinned total is
 * bounded by RLIMIT_MEMLOCK (in containers often 64 KiB or 8 MiB: the ENOMEM of cudf-spark
 * #7632). Read from /proc/self/limits and /proc/self/status (CapEff, VmPin), so it says what
 * this very process may pin.
 */
final class MemlockFindings {

  static final String MEMLOCK = "memlock";
  /** Below this, with no planned size given, say so: librpma's own buffers need some. */
  static final long LOW_LIMIT = 8L << 20;
  private static final int CAP_IPC_LOCK = 14;
  static final String FIX = "raise the locked-memory limit: ulimit -l <KiB> or unlimited,"
      + " LimitMEMLOCK= in a systemd unit, memlock in /etc/security/limits.conf; in a"
      + " container --ulimit memlock=-1 (Docker) or the runtime's default ulimits (Kubernetes"
      + " takes them from the container runtime); or grant CAP_IPC_LOCK";

  private MemlockFindings() {
  }

  static DoctorFinding check(HostPaths host, long plannedBytes) {
    Path self = host.proc().resolve("self");
    long[] limit = lockedMemoryLimit(self.resolve("limits")); // soft, hard; -1 unlimited
    if (limit == null) {
      return warning(MEMLOCK, "the locked-memory limit could not be read from "
          + self.resolve("limits"), "check it with ulimit -l; " + FIX);
    }
    String status = HostPaths.text(self.resolve("status"));
    if (hasIpcLock(status)) {
      return ok(MEMLOCK, "CAP_IPC_LOCK is held: the locked-memory limit (" + text(limit[0])
          + ") does not bound registration");
    }
    if (limit[0] == -1) {
      return ok(MEMLOCK, "locked-memory limit unlimited");
    }
    long pinned = kib(status, "VmPin:") * 1024;
    if (plannedBytes > 0) {
      long need = plannedBytes + Math.max(0, pinned);
      if (need > limit[0]) {
        return problem(MEMLOCK, "registering the planned " + plannedBytes + " bytes"
            + (pinned > 0 ? " (+ " + pinned + " pinned already)" : "") + " needs more than the"
            + " locked-memory limit (now " + limit[0] + " bytes, hard " + text(limit[1])
            + "): registration fails with ENOMEM", FIX);
      }
      return ok(MEMLOCK, "locked-memory limit " + limit[0] + " bytes covers the planned "
          + plannedBytes + " bytes");
    }
    if (limit[0] < LOW_LIMIT) {
      return warning(MEMLOCK, "locked-memory limit is only " + limit[0] + " bytes (hard "
          + text(limit[1]) + "): no more can be registered in all", FIX);
    }
    return ok(MEMLOCK, "locked-memory limit " + limit[0] + " bytes (give the planned"
        + " registration size to check it against)");
  }

  /** "Max locked memory  65536  65536  bytes" to {soft, hard}, -1 for unlimited. */
  static long[] lockedMemoryLimit(Path limits) {
    for (String line : HostPaths.text(limits).split("\n")) {
      if (line.startsWith("Max locked memory")) {
        String[] f = line.substring("Max locked memory".length()).trim().split("\\s+");
        try {
          return new long[] {value(f[0]), value(f[1])};
        } catch (RuntimeException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static long value(String field) {
    return "unlimited".equals(field) ? -1 : Long.parseLong(field);
  }

  private static String text(long v) {
    return v == -1 ? "unlimited" : v + " bytes";
  }

  static boolean hasIpcLock(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("CapEff:")) {
        long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
        return (caps >>> CAP_IPC_LOCK & 1) != 0;
      }
    }
    return false;
  }

  private static long kib(String status, String field) {
    for (String line : status.split("\n")) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return 0;
  }
}
