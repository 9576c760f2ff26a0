package dev.rpma.vertx.impl;

import java.nio.ByteBuffer;

/**
 * The one class with native methods: a thin binding over librpma.
 *
 * <p>Handles are librpma pointers as {@code long}. Calls return a value or a negative encoded
 * error ({@link NativeError}); nothing here throws. Which calls may block, and must therefore
 * run on a worker thread, is said on each group.
 */
public final class Native {

  private Native() {
  }

  static {
    NativeLibraryLoader.load();
    // librpma's log to java.util.logging, from now on, at the level JUL would keep
    int rc = logInstall(RpmaLog.threshold());
    if (rc != 0) {
      RpmaLog.LOGGER.warning("cannot route librpma's log to java.util.logging: error " + rc);
    }
  }

  /** Makes sure the library is loaded; throws a clear error if it cannot be. */
  public static void ensureLoaded() {
    // the static initialiser did the work
  }

  // ---- set-up: may block, worker threads only ----
  static native long ibvContextForAddress(String address);
  static native String ibvDeviceName(long ibvContext);
  static native long peerNew(long ibvContext);
  static native int peerDelete(long peer);
  static native long mrReg(long peer, ByteBuffer buffer, long offset, long length, int usage);
  static native int mrDereg(long mr);
  static native long epListen(long peer, String address, String port);
  static native int epShutdown(long ep);
  static native long connReqNew(long peer, String address, String port, long connCfg);
  static native int connDelete(long conn);

  // ---- configurations and descriptors: never block ----
  static native long peerCfgNew(boolean directWriteToPmem);
  static native long peerCfgFromDescriptor(byte[] descriptor);
  static native byte[] peerCfgDescriptor(long peerCfg);
  static native int peerCfgDirectWrite(long peerCfg);
  static native int peerCfgDelete(long peerCfg);
  static native byte[] mrDescriptor(long mr);
  static native long mrRemoteFromDescriptor(byte[] descriptor);
  static native long mrRemoteSize(long remoteMr);
  static native int mrRemoteFlushType(long remoteMr);
  static native int mrRemoteDelete(long remoteMr);
  static native long connCfgNew(int timeoutMs, int cqSize, int rcqSize, int sqSize, int rqSize,
      boolean sharedChannel);
  static native int connCfgDelete(long connCfg);
  static native long directBufferAddress(ByteBuffer buffer);
  static native int setNonBlocking(int fd);
  static native String errorString(int code);
  static native String wcStatusString(int status);
  static native String connEventString(int event);
  static native int logInstall(int level);

  // ---- connection management: on the event loop, over non-blocking fds ----
  static native int epFd(long ep);
  static native long epNextConnReq(long ep, long connCfg);
  static native byte[] connReqPrivateData(long req);
  static native long connReqConnect(long req, byte[] privateData);
  static native int connReqDelete(long req);
  static native int connReqRecv(long req, long dstMr, long offset, long length, long wrId);
  static native int connEventFd(long conn);
  static native int connNextEvent(long conn);
  static native byte[] connPrivateData(long conn);
  static native int connApplyRemotePeerCfg(long conn, long peerCfg);
  static native long connCq(long conn);
  static native long connRcq(long conn);
  static native int connComplFd(long conn);
  static native int connDisconnect(long conn);

  // ---- data path: on the connection's event loop ----
  static native int read(long conn, long dstMr, long dstOffset, long srcRemoteMr, long srcOffset,
      long length, long wrId);
  static native int write(long conn, long dstRemoteMr, long dstOffset, long srcMr, long srcOffset,
      long length, long wrId);
  static native int writeWithImm(long conn, long dstRemoteMr, long dstOffset, long srcMr,
      long srcOffset, long length, int imm, long wrId);
  static native int atomicWrite(long conn, long dstRemoteMr, long dstOffset, long value, long wrId);
  static native int flush(long conn, long dstRemoteMr, long dstOffset, long length, int type,
      long wrId);
  static native int send(long conn, long srcMr, long offset, long length, long wrId);
  static native int sendWithImm(long conn, long srcMr, long offset, long length, int imm,
      long wrId);
  static native int recv(long conn, long dstMr, long offset, long length, long wrId);

  // ---- completions: on the connection's event loop ----
  static native int cqDrain(long cq, long bufferAddress, int maxEntries, boolean waitFirst);
  static native int connWaitAll(long conn);
  /** One blocking rpma_cq_wait: for the thread-per-CQ reference design, never the library. */
  static native int cqWaitOnce(long cq);
  static native int cqFd(long cq);
  static native int wcLayout(int[] out);

  /** Called by the C log bridge for every librpma log line at or above the threshold. */
  static void onLog(int level, String file, int line, String function, String message) {
    RpmaLog.log(level, file, line, function, message);
  }
}
