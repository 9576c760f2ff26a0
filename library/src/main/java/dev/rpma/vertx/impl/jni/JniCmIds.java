package dev.rpma.vertx.impl.jni;

/**
 * The kernel's table of a device's RDMA CM ids (RDMA netlink), where a connection's two
 * addresses can be read although librpma keeps its rdma_cm id: translation only.
 */
public final class JniCmIds {

  private JniCmIds() {
  }

  /** The kernel's index of the device behind {@code ibv}; -1 if it has none. */
  public static int deviceIndex(long ibv) {
    return Native.ibvDeviceIndex(ibv);
  }

  /**
   * The device's CM id table as the kernel's netlink messages; null if it cannot be had (no
   * fd left, a kernel without it, no device index). A syscall, no wait on a peer.
   */
  public static byte[] table(int deviceIndex) {
    return deviceIndex < 0 ? null : Native.cmIdTable(deviceIndex);
  }
}
