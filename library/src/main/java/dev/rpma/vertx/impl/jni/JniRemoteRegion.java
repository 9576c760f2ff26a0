package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.DeviceRefusals;

/**
 * A peer's region decoded by librpma from its descriptor (rpma_mr_remote_from_descriptor):
 * translation only. Its facade decides when it is deleted.
 */
public final class JniRemoteRegion {

  private final long handle;
  private final long size;
  private final int flushType;

  private JniRemoteRegion(long handle, long size, int flushType) {
    this.handle = handle;
    this.size = size;
    this.flushType = flushType;
  }

  /**
   * The region {@code descriptor} describes; throws {@code IllegalArgumentException} naming
   * librpma's error if it is not a descriptor, or its size or flush type cannot be read.
   */
  public static JniRemoteRegion fromDescriptor(byte[] descriptor) {
    Native.ensureLoaded();
    long handle = Native.mrRemoteFromDescriptor(descriptor);
    if (NativeError.isError(handle)) {
      throw DeviceRefusals.invalidRemoteDescriptor(descriptor.length,
          Errors.rpma("rpma_mr_remote_from_descriptor", handle).getMessage());
    }
    long size = Native.mrRemoteSize(handle);
    int flushType = Native.mrRemoteFlushType(handle);
    if (size < 0 || flushType < 0) {
      Native.mrRemoteDelete(handle);
      throw new IllegalArgumentException("remote memory region descriptor unreadable");
    }
    return new JniRemoteRegion(handle, size, flushType);
  }

  public long handle() {
    return handle;
  }

  public long size() {
    return size;
  }

  /** Its RPMA_MR_USAGE_FLUSH_TYPE_* bits. */
  public int flushType() {
    return flushType;
  }

  /** rpma_mr_remote_delete. */
  public void delete() {
    Native.mrRemoteDelete(handle);
  }
}
