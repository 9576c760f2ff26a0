package dev.rpma.vertx.impl;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.JniCmIds;
import dev.rpma.vertx.impl.jni.JniPeer;
import dev.rpma.vertx.impl.jni.JniRemoteRegion;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.jni.RpmaLog;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.util.Objects;

/**
 * The default {@link RpmaProvider}: librpma through JNI, fds watched on the native transport's
 * loop. What {@code RpmaPeer.open} uses.
 */
public final class JniProvider implements RpmaProvider {

  public static final JniProvider INSTANCE = new JniProvider();

  private JniProvider() {
  }

  @Override
  public void checkUsable(Vertx vertx) {
    LoopContexts.requireNativeTransport(vertx);
    JniPeer.ensureLoaded();
  }

  @Override
  public ProviderPeer openPeer(String address) {
    LibraryClasses.loadAll(); // while files can still be opened: later paths need no file
    long ibv;
    try {
      RpmaLog.takeLastError(); // what an earlier call on this worker left
      ibv = JniPeer.ibvContext(address);
    } catch (RpmaException e) {
      throw CauseHints.open(e, address);
    }
    DeviceLimits device = DeviceLimits.query(ibv,
        Objects.requireNonNullElse(JniPeer.deviceName(ibv), "unnamed device"));
    long peer = JniPeer.create(ibv);
    return new JniProviderPeer(peer, device, JniCmIds.deviceIndex(ibv));
  }

  @Override
  public ContextInternal eventLoopContext(Vertx vertx, ContextInternal current) {
    return LoopContexts.eventLoopContext(vertx, current);
  }

  @Override
  public LoopIo loopIo(ContextInternal context) {
    return LoopContexts.loopIo(context);
  }

  /** librpma's decoding of a remote region's descriptor. */
  static RemoteDescriptors.Decoded decode(byte[] descriptor) {
    JniRemoteRegion region = JniRemoteRegion.fromDescriptor(descriptor);
    int flushType = region.flushType();
    return new RemoteDescriptors.Decoded(region.handle(), region.size(),
        (flushType & NativeConstants.usageFlag(MemoryUsage.FLUSH_PERSISTENT)) != 0,
        (flushType & NativeConstants.usageFlag(MemoryUsage.FLUSH_VISIBILITY)) != 0,
        region::delete);
  }
}
