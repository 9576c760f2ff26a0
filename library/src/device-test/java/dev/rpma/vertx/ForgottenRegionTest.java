package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.waitUntil;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The safety net for regions nobody closes: deregistered (their pinned memory given back) once
 * unreachable, at a later registration; one closed by its user is never freed again.
 */
@Tag("rdma")
class ForgottenRegionTest extends DeviceTestBase {

  private static final int BIG = 8 << 20;
  private static final Duration GC_DEADLINE = Duration.ofSeconds(60);

  /** Registers a region and keeps only a weak reference to it. */
  private static WeakReference<MemoryRegion> registerAndForget(RpmaPeer peer, int size) {
    return new WeakReference<>(await(peer.register(ByteBuffer.allocateDirect(size),
        MemoryUsage.WRITE_DST)));
  }

  private static void collectUntilUnreachable(WeakReference<?> ref) {
    waitUntil("the garbage collector found it unreachable", GC_DEADLINE, () -> {
      System.gc();
      return ref.get() == null;
    });
  }

  /** A registration, which collects forgotten regions first; closed at once. */
  private static void registerAnother(RpmaPeer peer) {
    await(await(peer.register(ByteBuffer.allocateDirect(4096), MemoryUsage.WRITE_SRC)).close());
  }

  @Test
  void aRegionNobodyClosedIsDeregisteredAfterItBecomesUnreachable() {
    RpmaPeer peer = await(RpmaPeer.open(vertx, RdmaTestSupport.deviceIp()));
    long before = ProcessResources.pinnedKib();
    WeakReference<MemoryRegion> forgotten = registerAndForget(peer, BIG);
    long pinned = ProcessResources.pinnedKib();
    assertTrue(pinned >= before + (BIG >> 10), "registered: VmPin " + before + " -> " + pinned);

    collectUntilUnreachable(forgotten);

    waitUntil("VmPin back to " + before + " kB", GC_DEADLINE, () -> {
      System.gc();
      registerAnother(peer);
      return ProcessResources.pinnedKib() <= before;
    });
    await(peer.close());
  }

  @Test
  void aRegionClosedThenUnreachableIsNotDeregisteredAgain() {
    RpmaPeer peer = await(RpmaPeer.open(vertx, RdmaTestSupport.deviceIp()));
    long before = ProcessResources.pinnedKib();
    MemoryRegion closed = await(peer.register(ByteBuffer.allocateDirect(BIG),
        MemoryUsage.WRITE_DST));
    await(closed.close());
    WeakReference<MemoryRegion> closedRef = new WeakReference<>(closed);
    closed = null;
    WeakReference<MemoryRegion> forgotten = registerAndForget(peer, BIG);

    collectUntilUnreachable(closedRef);
    collectUntilUnreachable(forgotten);
    waitUntil("the forgotten one deregistered: VmPin back to " + before + " kB", GC_DEADLINE,
        () -> {
          System.gc();
          registerAnother(peer);
          return ProcessResources.pinnedKib() <= before;
        });

    // a second rpma_mr_dereg of the closed one would have failed or crashed by now
    registerAnother(peer);
    await(peer.close());
  }

  @Test
  void aRemoteRegionClosedThenUnreachableIsNotFreedAgainAndAForgottenOneIsFreed() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      byte[] descriptor = pair.serverRegion.descriptor();
      RemoteMemoryRegion closed = RemoteMemoryRegion.fromDescriptor(descriptor);
      await(closed.close());
      WeakReference<RemoteMemoryRegion> closedRef = new WeakReference<>(closed);
      closed = null;
      WeakReference<RemoteMemoryRegion> forgotten =
          new WeakReference<>(RemoteMemoryRegion.fromDescriptor(descriptor));

      collectUntilUnreachable(closedRef);
      collectUntilUnreachable(forgotten);
      for (int i = 0; i < 20; i++) {
        System.gc();
        await(RemoteMemoryRegion.fromDescriptor(descriptor).close());
      }

      // a double free of the closed one's native copy would have aborted the JVM by now
      RemoteMemoryRegion fresh = RemoteMemoryRegion.fromDescriptor(descriptor);
      await(pair.client.write(fresh, 0, pair.clientRegion, 0, 8));
      await(fresh.close());
    }
  }
}
