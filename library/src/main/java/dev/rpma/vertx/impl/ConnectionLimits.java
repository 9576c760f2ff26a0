package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.NativeConstants;

/**
 * What bounds how many connections one process can hold, and the message a connection past a
 * bound fails with: the limit by name, its value now, and the fix. librpma reports each of them
 * as a provider error with an errno that names the symptom only (measured on Soft-RoCE, see
 * README "How many connections"):
 *
 * <ul>
 *   <li>open files (RLIMIT_NOFILE): {@value #FDS_PER_CONNECTION} fds per connection end; past
 *       the limit rpma_conn_req_new fails with ENOMEM (not EMFILE) or rpma_conn_req_connect
 *       with no errno; the server side checks first (FdHeadroom);
 *   <li>locked memory (RLIMIT_MEMLOCK, without CAP_IPC_LOCK): librpma registers one page per
 *       connection for its flush (a read-after-write buffer); past the limit
 *       rpma_conn_req_connect fails with no errno;
 *   <li>the device's queue pairs and completion queues (max_qp, max_cq), shared by every
 *       process on the device: ENOMEM, or EINVAL on rxe, when none is left.
 * </ul>
 */
final class ConnectionLimits {

  /**
   * Per connection end: librpma's CM event channel, its completion channel, the drain
   * continuation's eventfd (one more for a separate receive CQ without a shared channel).
   */
  static final int FDS_PER_CONNECTION = 3;

  /** Pinned per connection end: librpma's flush buffer, one page. */
  static final int PINNED_BYTES_PER_CONNECTION = 4096;

  private ConnectionLimits() {
  }

  /** fds one connection end with these options takes. */
  static int fdsPerConnection(ConnectionOptions o) {
    return FDS_PER_CONNECTION + (o.getRcqSize() > 0 && !o.isSharedCompletionChannel() ? 1 : 0);
  }

  /**
   * The failure of a connection's set-up call (client: rpma_conn_req_new or _connect; server:
   * rpma_ep_next_conn_req) with the limit it most likely met; {@code e} as it is otherwise.
   */
  static RpmaException setUpFailed(RpmaException e, String what, DeviceLimits device,
      ConnectionOptions options) {
    String why = why(e.errno(), device, options);
    return why == null ? e : new RpmaException(what + ": " + why + " " + e.getMessage(),
        e.code(), e.errno(), e);
  }

  /**
   * The cause and the fix for a failed set-up; null if none is known. The errno alone does not
   * tell: at the open-file limit rpma_conn_req_new fails with ENOMEM, and
   * rpma_conn_req_connect at either limit fails with no errno at all (both seen on rxe). So
   * the process's state says which limit it is at: fds first, then locked memory.
   */
  static String why(int errno, DeviceLimits device, ConnectionOptions options) {
    int fds = options == null ? FDS_PER_CONNECTION : fdsPerConnection(options);
    if (errno == NativeConstants.ENFILE) {
      return "the system's open-file table is full (fs.file-max): close connections or raise"
          + " it (sysctl fs.file-max).";
    }
    boolean unclear = errno == 0 || errno == NativeConstants.ENOMEM;
    if (errno == NativeConstants.EMFILE || unclear && FdHeadroom.lacking(fds) != null) {
      return openFiles(options);
    }
    if (unclear && ProcessLimits.lockedMemoryFull(PINNED_BYTES_PER_CONNECTION)) {
      return lockedMemory();
    }
    if (errno == NativeConstants.ENOMEM) {
      return "out of memory, of locked memory (" + lockedMemory() + ") or of the device's"
          + " queues (" + deviceQueues(device) + ").";
    }
    if (errno == NativeConstants.EINVAL && device != null && device.known()) {
      return "the device refused a queue pair or completion queue: " + deviceQueues(device)
          + " (rxe says EINVAL when none is left). Close connections, or spread them over"
          + " devices.";
    }
    return null;
  }

  /** The open-file limit, with its value, this process's open fds and the fix. */
  static String openFiles(ConnectionOptions options) {
    int perConnection = options == null ? FDS_PER_CONNECTION : fdsPerConnection(options);
    return "the process is at its open-file limit (RLIMIT_NOFILE now "
        + ProcessLimits.openFiles() + ProcessLimits.openFdsNote() + "): each connection end"
        + " takes " + perConnection + " file descriptors (its CM event channel, its completion"
        + " channel, the drain's eventfd). Raise the limit (ulimit -n, LimitNOFILE= in a"
        + " systemd unit, nofile in /etc/security/limits.conf, --ulimit nofile= for a"
        + " container) or close connections.";
  }

  private static String lockedMemory() {
    long pinned = ProcessLimits.pinnedKib();
    return "the process is at its locked-memory limit (RLIMIT_MEMLOCK now "
        + ProcessLimits.lockedMemory() + (pinned >= 0 ? ", " + pinned + " KiB pinned" : "")
        + "): each connection end pins " + PINNED_BYTES_PER_CONNECTION + " bytes (librpma's"
        + " flush buffer, registered with the device), besides the regions. Raise it (ulimit"
        + " -l, LimitMEMLOCK= in a systemd unit, memlock in /etc/security/limits.conf,"
        + " --ulimit memlock=-1 for a container) or grant CAP_IPC_LOCK; or close connections.";
  }

  private static String deviceQueues(DeviceLimits device) {
    return device == null || !device.known() ? "the device's limits are unknown"
        : "device " + device.device() + " allows " + device.queuePairsAndCqs()
            + ", shared by every process on it";
  }
}
