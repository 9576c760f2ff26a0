package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.JniConnection;
import dev.rpma.vertx.impl.jni.JniMapping;
import dev.rpma.vertx.impl.jni.JniPeer;
import dev.rpma.vertx.impl.jni.JniSharedQueue;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.jni.NativeError;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import java.nio.ByteBuffer;
import java.util.Set;

/** librpma's peer ({@link JniProvider}): its calls, translated, with the hints of a failure. */
final class JniProviderPeer implements ProviderPeer {

  private final long handle;
  private final DeviceLimits limits;
  private final int deviceIndex;
  private final RegionCaps regionCaps;

  JniProviderPeer(long handle, DeviceLimits limits, int deviceIndex, RegionCaps regionCaps) {
    this.handle = handle;
    this.limits = limits;
    this.deviceIndex = deviceIndex;
    this.regionCaps = regionCaps;
  }

  /** librpma's peer handle. */
  long handle() {
    return handle;
  }

  @Override
  public String deviceName() {
    return limits.device();
  }

  @Override
  public DeviceLimits limits() {
    return limits;
  }

  @Override
  public int deviceIndex() {
    return deviceIndex;
  }

  @Override
  public Registered register(ByteBuffer view, Set<MemoryUsage> usages) {
    long mr = Native.mrReg(handle, view, 0, view.capacity(), NativeConstants.usageFlags(usages));
    if (NativeError.isError(mr)) {
      throw CauseHints.register(Errors.rpma("rpma_mr_reg", mr), view.capacity());
    }
    return withDescriptor(mr);
  }

  @Override
  public Registered registerMapping(long address, long length, Set<MemoryUsage> usages) {
    long mr = JniMapping.register(handle, address, length, NativeConstants.usageFlags(usages));
    return withDescriptor(mr);
  }

  /** A region just registered, with its descriptor; deregistered if that cannot be read. */
  private static Registered withDescriptor(long mr) {
    byte[] descriptor = Native.mrDescriptor(mr);
    if (descriptor == null) {
      Native.mrDereg(mr);
      throw new IllegalStateException("rpma_mr_get_descriptor failed");
    }
    return new Registered(mr, descriptor);
  }

  @Override
  public boolean registersMappings() {
    return true;
  }

  @Override
  public RegionCaps regionCaps() {
    return regionCaps;
  }

  @Override
  public void deregister(long mr) {
    Errors.check("rpma_mr_dereg", Native.mrDereg(mr));
  }

  @Override
  public LibrpmaConnection connect(String address, int port, ConnectionOptions options,
      byte[] privateData, long srq, ConnectAttempt attempt) {
    long conn = Endpoints.requestConnection(handle, limits, address, port, options,
        privateData, srq, attempt);
    return new JniConnection(conn, options.getDrainBatch());
  }

  @Override
  public Listening listen(String address, int port, ConnectionOptions options, long srq) {
    FreePorts.Bound bound = Endpoints.listen(handle, address, port, options, srq);
    return new Listening(bound.endpoint(), bound.port());
  }

  @Override
  public MadeQueue newSharedQueue(int rqSize, int rcqSize, int drainBatch) {
    try {
      JniSharedQueue q = JniSharedQueue.create(handle, rqSize, rcqSize, drainBatch);
      return new MadeQueue(q.handle(), q);
    } catch (RpmaException e) {
      throw new RpmaException(e.getMessage() + " (rqSize " + rqSize + ", rcqSize " + rcqSize
          + ": the device limits them, see max_srq_wr and max_cqe in ibv_devinfo -v)",
          e.code(), e.errno(), e);
    }
  }

  @Override
  public long flushType(FlushType type) {
    return NativeConstants.flushType(type);
  }

  @Override
  public RuntimeException lackingFds() {
    return FdHeadroom.lacking(FdHeadroom.FOR_AN_ACCEPT);
  }

  @Override
  public void delete() {
    JniPeer.delete(handle);
  }
}
