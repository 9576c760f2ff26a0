package dev.rpma.vertx.impl.seam;

/**
 * What the device refuses, in the words every provider uses: librpma's (through the JNI layer)
 * and the test kit's, so that a test green on the kit meets the same exception, type and
 * message, on the device.
 */
public final class DeviceRefusals {

  private DeviceRefusals() {
  }

  /**
   * Why no device serves a loopback or wildcard address (rdma_bind_addr succeeds there bound
   * to no device; librpma then reports success with no context), for an RpmaException.
   */
  public static String loopbackOrWildcard(String address) {
    return "no RDMA device serves address " + address + ": it is a loopback or wildcard"
        + " address (127.0.0.1, localhost, 0.0.0.0, ::1), bound to no RDMA device. Give the IP"
        + " address of the network interface the RDMA device is on (`rdma link` lists each"
        + " device with its netdev)";
  }

  /**
   * A persistent flush on a connection that has not applied the remote peer's configuration,
   * or whose peer did not state direct writes to persistence: librpma's RPMA_E_NOSUPP.
   */
  public static IllegalStateException persistentFlushWithoutPeerConfig(Throwable cause) {
    return new IllegalStateException("flush(PERSISTENT) needs the remote peer's configuration:"
        + " the peer must state that its memory takes writes directly to persistence"
        + " (PeerConfig.create(true), its descriptor sent e.g. in private data) and this side"
        + " must call applyRemotePeerConfig(PeerConfig.fromDescriptor(bytes)) first", cause);
  }

  /** rpma_ep_listen at a taken port (EADDRINUSE): one listener per port, and setInstances. */
  public static String portInUse(String address, int port) {
    return "port " + port + " on " + address + " is already in use: one listener per port. To"
        + " serve it from several verticle instances (setInstances), listen once and hand the"
        + " requests to the instances, or give each its own port.";
  }

  /**
   * rpma_ep_listen at an address no interface of this host has (rdma_bind_addr's
   * EADDRNOTAVAIL): often another host's address, or a mistyped one.
   */
  public static String listenAddressNotOnThisHost(String address) {
    return "no interface of this host has address " + address + ", so nothing can listen"
        + " there: listen at the address the server's peer was opened on (the interface its"
        + " RDMA device is on).";
  }

  /**
   * A remote region's descriptor that rpma_mr_remote_from_descriptor does not take (too short,
   * not a descriptor); {@code why} is the decoder's error.
   */
  public static IllegalArgumentException invalidRemoteDescriptor(int length, String why) {
    return new IllegalArgumentException("not a valid remote memory region descriptor ("
        + length + " bytes): " + why + ". Pass the bytes of MemoryRegion.descriptor() whole,"
        + " as the region's peer made them");
  }
}
