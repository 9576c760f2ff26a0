package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.jni.NativeError;
import dev.rpma.vertx.impl.jni.RpmaLog;
import dev.rpma.vertx.impl.seam.DeviceRefusals;

/**
 * The failures users meet most, said with their cause and their fix: librpma reports them as a
 * provider error with an errno, which names the symptom but not what to change.
 */
final class CauseHints {

  private CauseHints() {
  }

  /**
   * No device for an address: for a loopback or wildcard address (127.0.0.1, localhost,
   * 0.0.0.0, ::1) rdma_bind_addr succeeds bound to no device, and librpma reports success with
   * no context (the JNI layer's VRPMA_E_NO_OBJECT); any other failure is a missing RDMA link.
   */
  static RpmaException open(RpmaException e, String address) {
    String librpmaError = RpmaLog.takeLastError();
    if (!AddressCheck.isIpLiteral(address) && librpmaError != null
        && librpmaError.contains("rdma_getaddrinfo")) {
      return new RpmaException("\"" + address + "\" is not an IP address or resolvable name:"
          + " resolving it failed (" + e.getMessage() + "; librpma: " + librpmaError + "). Give"
          + " the IP address of the interface the RDMA device is on, or a name /etc/hosts or"
          + " DNS resolves", e.code(), e.errno(), e);
    }
    if (e.code() == NativeError.VRPMA_E_NO_OBJECT) {
      return new RpmaException(DeviceRefusals.loopbackOrWildcard(address), e.code(), e.errno(),
          e);
    }
    return new RpmaException("no RDMA device serves address " + address + " (is an RDMA link,"
        + " e.g. Soft-RoCE rxe, configured on its interface?): " + e.getMessage(), e.code(),
        e.errno(), e);
  }

  /**
   * rpma_ep_listen on a taken port (one listener per port, and what to do with setInstances),
   * or at an address that is not this host's.
   */
  static RpmaException listen(RpmaException e, String address, int port) {
    String hint = e.errno() == NativeConstants.EADDRINUSE
        ? DeviceRefusals.portInUse(address, port)
        : e.errno() == NativeConstants.EADDRNOTAVAIL
            ? DeviceRefusals.listenAddressNotOnThisHost(address) : null;
    return hint == null ? e
        : new RpmaException(hint + " " + e.getMessage(), e.code(), e.errno(), e);
  }

  /**
   * rpma_mr_reg out of memory: registering pins the buffer, and without CAP_IPC_LOCK the pinned
   * total is bounded by RLIMIT_MEMLOCK, often 8 MiB (or 64 KiB on older systems).
   */
  static RpmaException register(RpmaException e, long bytes) {
    if (e.errno() != NativeConstants.ENOMEM) {
      return e;
    }
    return new RpmaException("cannot register " + bytes + " bytes: registering pins memory, and"
        + " this process's locked-memory limit (" + memlockLimit() + ") is probably reached."
        + " Raise it (ulimit -l, LimitMEMLOCK= in a systemd unit, memlock in"
        + " /etc/security/limits.conf, --ulimit memlock=-1 for a container) or grant"
        + " CAP_IPC_LOCK. " + e.getMessage(), e.code(), e.errno(), e);
  }

  /** The soft locked-memory limit: "now 65536 bytes", "now unlimited" or "now unknown". */
  static String memlockLimit() {
    return "now " + ProcessLimits.lockedMemory();
  }
}
