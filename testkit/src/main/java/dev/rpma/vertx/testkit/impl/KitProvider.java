package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.impl.ProviderPeer;
import dev.rpma.vertx.impl.RpmaProvider;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

/**
 * The test kit's {@link RpmaProvider}: peers on one in-JVM device, for one Vert.x; any
 * transport, no native library.
 */
public final class KitProvider implements RpmaProvider {

  private final KitDevice device;
  private final Vertx vertx;
  private final KitDescriptors descriptors;

  public KitProvider(KitDevice device, Vertx vertx) {
    this.device = device;
    this.vertx = vertx;
    this.descriptors = device.descriptors();
  }

  @Override
  public void checkUsable(Vertx v) {
    if (v != vertx) {
      throw new IllegalArgumentException("this test kit provider serves another Vertx");
    }
  }

  @Override
  public ProviderPeer openPeer(String address) {
    KitAddresses.check(address);
    device.peerOpenedAt(address);
    return new KitPeer(device, vertx, descriptors);
  }

  @Override
  public ContextInternal eventLoopContext(Vertx v, ContextInternal current) {
    return LoopContexts.eventLoopContextOf(v, current);
  }

  @Override
  public LoopIo loopIo(ContextInternal context) {
    return new KitLoopIo(device, context);
  }
}
