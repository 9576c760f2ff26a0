package dev.rpma.vertx.impl.jni;

/** A peer's librpma calls (device lookup, rpma_peer_new/delete): translation only. */
public final class JniPeer {

  private JniPeer() {
  }

  /** Loads the natives; throws naming what is missing. */
  public static void ensureLoaded() {
    Native.ensureLoaded();
  }

  /** The device serving {@code address} (rpma_utils_get_ibv_context); throws librpma's error. */
  public static long ibvContext(String address) {
    return Errors.check("rpma_utils_get_ibv_context", Native.ibvContextForAddress(address));
  }

  /** The device's name, or null if it has none. */
  public static String deviceName(long ibv) {
    return Native.ibvDeviceName(ibv);
  }

  /** rpma_peer_new: a protection domain on the device. Blocks: on a worker. */
  public static long create(long ibv) {
    return Errors.check("rpma_peer_new", Native.peerNew(ibv));
  }

  /** rpma_peer_delete. Blocks: on a worker. */
  public static void delete(long peer) {
    Errors.check("rpma_peer_delete", Native.peerDelete(peer));
  }
}
