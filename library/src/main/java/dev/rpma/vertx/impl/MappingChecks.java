package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeConstants;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * What must hold before a file or device-DAX range is mapped and registered, each refusal
 * with its cause and fix; and what a refused registration of a mapping means. Pure functions
 * of their arguments, apart from reading this process's capabilities.
 */
final class MappingChecks {

  /** CAP_IPC_LOCK's bit in /proc/self/status CapEff: the memlock limit does not bind. */
  private static final int CAP_IPC_LOCK = 14;
  private static final int EOPNOTSUPP = 95;

  private MappingChecks() {
  }

  /** Why the arguments cannot name a range to register, or null. On the caller's thread. */
  static String arguments(Path path, long offset, long length, Set<MemoryUsage> usages) {
    if (path == null) {
      return "path must not be null: give a file or a device-DAX device (/dev/daxN.M)";
    }
    if (offset < 0) {
      return "offset " + offset + " is negative: give the range's start in the file, from 0";
    }
    if (length <= 0) {
      return "length " + length + " must be positive: give the range's length in bytes";
    }
    if (offset + length < 0) {
      return "offset " + offset + " + length " + length + " overflows a long";
    }
    if (usages == null || usages.isEmpty()) {
      return "give at least one MemoryUsage";
    }
    for (MemoryUsage usage : usages) { // not contains(null): Set.of's throws
      if (usage == null) {
        return "a MemoryUsage is null: give the usages, none null";
      }
    }
    return null;
  }

  /** Why [offset, offset + length) of {@code file} cannot be registered on the device, or null. */
  static String fits(MappedFile file, long offset, long length, RegionCaps caps, String device) {
    String what = file.kind() == MappedFile.Kind.DEVICE_DAX ? "device-DAX device" : "file";
    if (offset % file.alignment() != 0) {
      return "offset " + offset + " into " + file.path() + " is not a multiple of "
          + file.alignment() + " (the " + what + "'s mapping alignment): round it down to "
          + (offset - offset % file.alignment());
    }
    if (file.kind() == MappedFile.Kind.DEVICE_DAX && length % file.alignment() != 0) {
      return "length " + length + " is not a multiple of " + file.alignment() + " (the"
          + " device-DAX device's alignment, /sys/dev/char/.../align): round it to a multiple";
    }
    if (offset > file.size() - length) {
      String fix = file.kind() == MappedFile.Kind.FILE
          ? ": extend the file first (truncate -s, RandomAccessFile.setLength); a mapping past"
              + " a file's end cannot be touched"
          : ": register at most the device's size";
      return "[" + offset + ", " + (offset + length) + ") is past the end of " + file.path()
          + " (" + file.size() + " bytes)" + fix;
    }
    if (caps.tooLarge(length)) {
      return "length " + length + " is over the largest region device " + device
          + " registers (max_mr_size " + Long.toUnsignedString(caps.maxMrSize()) + "): register"
          + " the range as several regions of at most that";
    }
    return null;
  }

  /**
   * Why pinning {@code length} more bytes would pass the locked-memory limit, or null: a
   * registration pins every page unless the device pages on demand, and without CAP_IPC_LOCK
   * the pinned total is bounded by RLIMIT_MEMLOCK.
   *
   * @param limit the soft limit in bytes; negative: unlimited or unknown
   * @param pinned bytes pinned now (VmPin); negative: unknown, taken as 0
   */
  static String memlock(long length, long limit, long pinned, boolean ipcLock, boolean odp) {
    if (odp || ipcLock || limit < 0 || Math.max(pinned, 0) + length <= limit) {
      return null;
    }
    return "cannot register " + length + " bytes: registering pins them, and this process may"
        + " lock " + limit + " bytes (RLIMIT_MEMLOCK), " + Math.max(pinned, 0) + " already"
        + " pinned. Raise the limit (ulimit -l, LimitMEMLOCK= in a systemd unit, memlock in"
        + " /etc/security/limits.conf, --ulimit memlock=-1 for a container) or grant"
        + " CAP_IPC_LOCK";
  }

  /** {@link #memlock} for this process. */
  static String memlock(long length, boolean odp) {
    return memlock(length, softMemlock(), ProcessLimits.pinnedKib() * 1024, hasIpcLock(), odp);
  }

  /**
   * What a refused registration of a mapping means. On a DAX file system (the mapping was
   * synchronous but the path is a regular file) the kernel refuses long-term pins of its pages
   * (EOPNOTSUPP): only a device that pages on demand can register it.
   */
  static RpmaException refused(RpmaException e, MappedFile file, boolean sync, RegionCaps caps,
      String device, long length) {
    if (file.kind() == MappedFile.Kind.FILE && sync && !caps.onDemandPaging()) {
      String errno = e.errno() == EOPNOTSUPP ? "" : " (" + e.getMessage() + ")";
      return new RpmaException(file.path() + " is on a file system mounted with -o dax"
          + " (fs-DAX): the kernel does not pin its pages for a device" + errno + ", so only a"
          + " device with on-demand paging can register it, and " + device + " has none"
          + " (RpmaPeer.onDemandPaging() is false). Use a device-DAX namespace (ndctl"
          + " create-namespace -m devdax, then register /dev/daxN.M), or a file on a file"
          + " system without dax. " + e.getMessage(), e.code(), e.errno(), e);
    }
    return CauseHints.register(e, length);
  }

  private static long softMemlock() {
    long limit = Native.softLimit(NativeConstants.RLIMIT_MEMLOCK);
    return limit < 0 ? -1 : limit;
  }

  /** Whether this process holds CAP_IPC_LOCK (its effective capabilities); false if unknown. */
  static boolean hasIpcLock() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("CapEff:")) {
          long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
          return (caps & (1L << CAP_IPC_LOCK)) != 0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: the registration's own failure will say
    }
    return false;
  }
}
