package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.waitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The safety net for regions nobody closes: deregistered (their pinned memory given back) once
 * unreachable, at a later registration, unless their descriptor was handed out (peers may use
 * it); one closed by its user is never freed again.
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
  void aRegionWhoseDescriptorWasHandedOutStaysForItsPeersUntilItsPeerCloses() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      // a server's region known to its clients by descriptor only, as a server that keeps
      // just its offer's bytes has it
      MemoryRegion offered = await(pair.serverPeer.register(ByteBuffer.allocateDirect(BIG),
          Loopback.SERVER_USAGES));
      byte[] descriptor = offered.descriptor();
      WeakReference<MemoryRegion> ref = new WeakReference<>(offered);
      offered = null;
      collectUntilUnreachable(ref);
      long pinned = ProcessResources.pinnedKib();
      for (int i = 0; i < 5; i++) { // registrations, which free the regions found forgotten
        System.gc();
        registerAnother(pair.serverPeer);
      }
      assertTrue(ProcessResources.pinnedKib() >= pinned, "still registered: VmPin " + pinned
          + " -> " + ProcessResources.pinnedKib() + " kB");

      RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(descriptor);
      pair.clientRegion.buffer().putLong(0, 0x5eed5eedL);
      await(pair.client.write(remote, BIG - 8, pair.clientRegion, 0, 8));
      pair.clientRegion.buffer().putLong(8, 0);
      await(pair.client.read(pair.clientRegion, 8, remote, BIG - 8, 8));
      assertEquals(0x5eed5eedL, pair.clientRegion.buffer().getLong(8));
      await(remote.close());
      long beforePeerClose = ProcessResources.pinnedKib();
      await(pair.serverPeer.close());
      assertTrue(ProcessResources.pinnedKib() <= beforePeerClose - (BIG >> 10),
          "its peer's close deregistered it: VmPin " + beforePeerClose + " -> "
              + ProcessResources.pinnedKib() + " kB");
    }
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
