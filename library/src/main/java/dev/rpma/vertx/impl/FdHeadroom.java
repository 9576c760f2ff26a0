package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.jni.NativeError;

/**
 * Whether the process has a few fds to spare, asked right before an accept.
 *
 * <p>Why: librpma's accept sends the CM's reply (rdma_accept) and only then makes the
 * connection's event channel, an fd. At the open-file limit that step fails after the client
 * was told yes; librpma's rdma_disconnect then races the client's RTU and may be lost, and the
 * client holds a connection to a queue pair that is gone until its keepalive notices (seen in
 * FdLimitTest). Asked first, the request is rejected instead, and the client's connect fails
 * at once. Another thread may still take the fds in between: this narrows the window to that.
 */
final class FdHeadroom {

  /** librpma's event channel and the drain continuation's eventfd. */
  static final int FOR_AN_ACCEPT = 2;

  private FdHeadroom() {
  }

  /** Null if {@code n} fds could be opened just now; else why not, with the fix. */
  static RpmaException lacking(int n) {
    int[] fds = new int[n];
    int opened = 0;
    int error = 0;
    for (; opened < n; opened++) {
      int fd = Native.eventFdNew();
      if (fd < 0) {
        error = -fd;
        break;
      }
      fds[opened] = fd;
    }
    for (int i = 0; i < opened; i++) {
      Native.fdClose(fds[i]);
    }
    if (opened == n) {
      return null;
    }
    String hint = error == NativeConstants.EMFILE || error == NativeConstants.ENFILE
        ? " " + ConnectionLimits.openFiles(null) : "";
    return new RpmaException("cannot accept: " + n + " file descriptors are needed and only "
        + opened + " could be opened (errno " + error + " " + Native.errnoString(error) + ");"
        + " the request was rejected." + hint, NativeError.RPMA_E_PROVIDER, error);
  }
}
