package dev.rpma.vertx.impl.jni;

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
    // librpma's log to Vert.x's logging, from now on, at the level its logger keeps; without
    // Vert.x (the doctor run as `java -jar` with the jar alone) librpma keeps its own log
    if (vertxOnClassPath()) {
      int rc = logInstall(RpmaLog.threshold());
      if (rc != 0) {
        RpmaLog.warnNotRouted(rc);
      }
    }
  }

  private static boolean vertxOnClassPath() {
    try {
      Class.forName("io.vertx.core.internal.logging.LoggerFactory", false,
          Native.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Makes sure the library is loaded; throws a clear error if it cannot be. */
  public static void ensureLoaded() {
    // the static initialiser did the work
  }

  // ---- set-up: may block, worker threads only ----
  public static native long ibvContextForAddress(String address);
  public static native String ibvDeviceName(long ibvContext);
  /** The kernel's index of the device (ibv_get_device_index); -1 if none. */
  public static native int ibvDeviceIndex(long ibvContext);
  /** The netlink messages of the device's RDMA CM id table; null if they cannot be had. */
  public static native byte[] cmIdTable(int deviceIndex);
  /** max_qp, max_cq, max_cqe, max_qp_wr, max_mr, max_srq into {@code out}; 0 or errno. */
  public static native int ibvDeviceLimits(long ibvContext, long[] out);
  public static native long peerNew(long ibvContext);
  public static native int peerDelete(long peer);
  public static native long mrReg(long peer, ByteBuffer buffer, long offset, long length, int usage);
  public static native int mrDereg(long mr);

  // ---- regions on a file or device-DAX (rpma_jni_map.c): may block, worker threads only ----
  /** mmap of the file, shared; the address or -errno; out[0] 1 if MAP_SYNC (DAX). */
  public static native long mapFile(String path, long offset, long length, long[] out);
  /** munmap; 0 or errno. */
  public static native int unmap(long address, long length);
  /** The mapping replaced by anonymous memory reserving nothing; 0 or errno. */
  public static native int retireMapping(long address, long length);
  /** Each page of a mapping's range dirtied from the CPU, then msync; 0 or errno. */
  public static native int persistMapping(long address, long length);
  /** A direct buffer over [address, address + length); null if the arguments are bad. */
  public static native ByteBuffer window(long address, int length);
  /** rpma_mr_reg of a mapping's [address, address + length); the region or an error. */
  public static native long mrRegMapped(long peer, long address, long length, int usage);
  /** max_mr_size, then 1 if the device pages on demand (ODP), into out; 0 or errno. */
  public static native int regionCaps(long ibvContext, long[] out);
  public static native long epListen(long peer, String address, String port);
  public static native int epShutdown(long ep);
  public static native long connReqNew(long peer, String address, String port, long connCfg);
  public static native int connDelete(long conn);

  // ---- configurations and descriptors: never block ----
  public static native long peerCfgNew(boolean directWriteToPmem);
  public static native long peerCfgFromDescriptor(byte[] descriptor);
  public static native byte[] peerCfgDescriptor(long peerCfg);
  public static native int peerCfgDirectWrite(long peerCfg);
  public static native int peerCfgDelete(long peerCfg);
  public static native byte[] mrDescriptor(long mr);
  public static native long mrRemoteFromDescriptor(byte[] descriptor);
  public static native long mrRemoteSize(long remoteMr);
  public static native int mrRemoteFlushType(long remoteMr);
  public static native int mrRemoteDelete(long remoteMr);
  public static native long connCfgNew(int timeoutMs, int cqSize, int rcqSize, int sqSize, int rqSize,
      boolean sharedChannel);
  public static native int connCfgDelete(long connCfg);
  public static native long directBufferAddress(ByteBuffer buffer);
  public static native int setNonBlocking(int fd);
  public static native String errorString(int code);
  /** errno's name and text, e.g. "ENODEV (No such device)". */
  public static native String errnoString(int errno);
  /** A soft rlimit (NativeConstants.RLIMIT_*): -1 unlimited, -2 unknown. */
  public static native long softLimit(int resource);
  public static native String wcStatusString(int status);
  public static native String connEventString(int event);
  public static native int logInstall(int level);

  // ---- connection management: on the event loop, over non-blocking fds ----
  public static native int epFd(long ep);
  public static native long epNextConnReq(long ep, long connCfg);
  public static native byte[] connReqPrivateData(long req);
  public static native long connReqConnect(long req, byte[] privateData);
  public static native int connReqDelete(long req);
  public static native int connReqRecv(long req, long dstMr, long offset, long length, long wrId);
  public static native int connEventFd(long conn);
  public static native int connNextEvent(long conn);
  /** The next CM event with its status and private data (rpma_jni_cm.c packs the result). */
  public static native long connNextCmEvent(long conn, byte[] privateDataOut);
  public static native byte[] connPrivateData(long conn);
  public static native int connApplyRemotePeerCfg(long conn, long peerCfg);
  public static native long connCq(long conn);
  public static native long connRcq(long conn);
  public static native int connComplFd(long conn);
  public static native int connDisconnect(long conn);

  // ---- data path: on the connection's event loop ----
  public static native int read(long conn, long dstMr, long dstOffset, long srcRemoteMr, long srcOffset,
      long length, int flags, long wrId);
  public static native int write(long conn, long dstRemoteMr, long dstOffset, long srcMr, long srcOffset,
      long length, int flags, long wrId);
  public static native int writeWithImm(long conn, long dstRemoteMr, long dstOffset, long srcMr,
      long srcOffset, long length, int imm, int flags, long wrId);
  public static native int atomicWrite(long conn, long dstRemoteMr, long dstOffset, long value,
      int flags, long wrId);
  public static native int flush(long conn, long dstRemoteMr, long dstOffset, long length, int type,
      int flags, long wrId);
  public static native int send(long conn, long srcMr, long offset, long length, int flags,
      long wrId);
  public static native int sendWithImm(long conn, long srcMr, long offset, long length, int imm,
      int flags, long wrId);
  public static native int recv(long conn, long dstMr, long offset, long length, long wrId);

  // ---- shared receive queues: srqNew and srqDelete may block (workers only); the rest never ----
  public static native long srqNew(long peer, int rqSize, int rcqSize);
  public static native int srqDelete(long srq);
  public static native long srqRcq(long srq);
  public static native int srqRecv(long srq, long dstMr, long offset, long length, long wrId);
  public static native int connCfgSetSrq(long connCfg, long srq);
  /** The connection's queue pair number (unsigned 32 bits), or a negative encoded error. */
  public static native long connQpNum(long conn);

  // ---- completions: on the connection's event loop ----
  public static native int cqDrain(long cq, long bufferAddress, int maxEntries, boolean waitFirst);
  public static native int connWaitAll(long conn);
  /** One blocking rpma_cq_wait: for the thread-per-CQ reference design, never the library. */
  public static native int cqWaitOnce(long cq);
  public static native int cqFd(long cq);
  public static native int wcLayout(int[] out);

  // ---- the doctor (rpma_jni_doctor.c): opens a device by name, so on a worker ----
  /**
   * max_qp, max_cq, max_cqe, max_qp_wr, max_mr, max_srq, max_mr_size, ODP general caps, ODP RC
   * caps of the device named {@code device} into {@code out}; 0 or an errno (ENODEV: none).
   */
  public static native int doctorDeviceCaps(String device, long[] out);

  // ---- constants, by their C names (NativeConstants): never block ----
  /** The value of a librpma, verbs or kernel constant; Integer.MIN_VALUE if unknown. */
  public static native int constant(String name);

  // ---- our own eventfd (the drain continuation): never block; 0 or fd, else -errno ----
  public static native int eventFdNew();
  public static native int eventFdSignal(int fd);
  public static native int eventFdReset(int fd);
  public static native int fdClose(int fd);

  /** Called by the C log bridge for every librpma log line at or above the threshold. */
  public static void onLog(int level, String file, int line, String function, String message) {
    RpmaLog.log(level, file, line, function, message);
  }
}
