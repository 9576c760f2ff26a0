package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeConstants;
import java.io.File;

/**
 * This process's resource limits and use, for messages that name the limit that was reached
 * and its value. The limits come from getrlimit, not /proc: at the open-file limit there may
 * be no fd left to read a file with. The use comes from /proc, and is left out when unknown.
 */
final class ProcessLimits {

  private ProcessLimits() {
  }

  /** RLIMIT_NOFILE's soft value: "4096", "unlimited" or "unknown". */
  static String openFiles() {
    return text(Native.softLimit(NativeConstants.RLIMIT_NOFILE), "");
  }

  /** RLIMIT_MEMLOCK's soft value: "65536 bytes", "unlimited" or "unknown". */
  static String lockedMemory() {
    return text(Native.softLimit(NativeConstants.RLIMIT_MEMLOCK), " bytes");
  }

  /**
   * Whether pinning {@code bytes} more would pass RLIMIT_MEMLOCK: for a failure that came
   * without an errno (librpma loses it on some paths). Not for CAP_IPC_LOCK holders, which the
   * limit does not bind; the messages say "probably".
   */
  static boolean lockedMemoryFull(long bytes) {
    long limit = Native.softLimit(NativeConstants.RLIMIT_MEMLOCK);
    long pinnedKib = pinnedKib();
    return limit >= 0 && pinnedKib >= 0 && pinnedKib * 1024 + bytes > limit;
  }

  private static String text(long limit, String unit) {
    return limit == -1 ? "unlimited" : limit < 0 ? "unknown" : limit + unit;
  }

  /** ", N open" for a message; empty if /proc cannot tell (as at the open-file limit). */
  static String openFdsNote() {
    String[] fds = new File("/proc/self/fd").list();
    return fds == null ? "" : ", " + fds.length + " open";
  }

  /** VmPin of /proc/self/status in KiB (memory pinned for devices); -1 if unknown. */
  static long pinnedKib() {
    return ProcStatus.kib("VmPin:");
  }
}
