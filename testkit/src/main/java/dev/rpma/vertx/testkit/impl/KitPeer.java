package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.ConnectAttempt;
import dev.rpma.vertx.impl.DeviceLimits;
import dev.rpma.vertx.impl.ProviderPeer;
import dev.rpma.vertx.impl.RegionCaps;
import dev.rpma.vertx.impl.seam.DeviceRefusals;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/** A peer (protection domain) on the in-JVM device. */
final class KitPeer implements ProviderPeer {

  /** EADDRINUSE, as the kernel numbers it: the errno of a taken port. */
  private static final int EADDRINUSE = 98;
  /** EADDRNOTAVAIL: the errno of a bind at an address that is not the host's. */
  private static final int EADDRNOTAVAIL = 99;

  private final KitDevice device;
  private final Vertx vertx;
  private final KitDescriptors descriptors;

  KitPeer(KitDevice device, Vertx vertx, KitDescriptors descriptors) {
    this.device = device;
    this.vertx = vertx;
    this.descriptors = descriptors;
  }

  Vertx vertx() {
    return vertx;
  }

  @Override
  public String deviceName() {
    return "testkit0";
  }

  @Override
  public DeviceLimits limits() {
    // Soft-RoCE's (rxe, kernel 6.1), the test bed's device: queue sizes are refused alike
    return new DeviceLimits(deviceName(), true, 1048560, 1048576, 32767, 1048576, 524287,
        917503);
  }

  @Override
  public int deviceIndex() {
    return -1;
  }

  @Override
  public Registered register(ByteBuffer view, Set<MemoryUsage> usages) {
    KitRegion region = new KitRegion(device.nextHandle(), view, EnumSet.copyOf(usages), this);
    device.addRegion(region);
    return new Registered(region.handle(), descriptors.describe(region));
  }

  @Override
  public Registered registerMapping(long address, long length, Set<MemoryUsage> usages) {
    throw new UnsupportedOperationException(
        "the test kit models regions of direct buffers only, not mappings of files");
  }

  @Override
  public boolean registersMappings() {
    return false;
  }

  @Override
  public RegionCaps regionCaps() {
    // Soft-RoCE's (rxe, kernel 6.1): no limit on a region's size, no on-demand paging
    return new RegionCaps(true, -1, false);
  }

  @Override
  public void deregister(long handle) {
    device.removeRegion(handle);
  }

  @Override
  public LibrpmaConnection connect(String address, int port, ConnectionOptions options,
      byte[] privateData, long srq, ConnectAttempt attempt) {
    refuseSharedChannel(options);
    device.refuseAnotherKitsListener(address, port);
    KitConnection client = new KitConnection(device, this, options.getRcqSize() > 0,
        device.sharedQueue(srq));
    device.request(client, address, port, privateData);
    return client;
  }

  @Override
  public Listening listen(String address, int port, ConnectionOptions options, long srq) {
    refuseSharedChannel(options);
    if (KitAddresses.isNotTheHosts(device, address)) {
      throw new RpmaException(DeviceRefusals.listenAddressNotOnThisHost(address) + " "
          + listenFailed(EADDRNOTAVAIL, "EADDRNOTAVAIL (Cannot assign requested address)"),
          -1, EADDRNOTAVAIL);
    }
    KitEndpoint endpoint = new KitEndpoint(device, this, new ConnectionOptions(options),
        device.sharedQueue(srq));
    int bound = device.listen(address, port, endpoint);
    if (bound < 0) {
      endpoint.shutdown();
      throw new RpmaException(DeviceRefusals.portInUse(address, port) + " "
          + listenFailed(EADDRINUSE, "EADDRINUSE (Address already in use)"), -1, EADDRINUSE);
    }
    endpoint.listening(address, bound);
    return new Listening(endpoint, bound);
  }

  /** librpma's report of a failed rpma_ep_listen, as the JNI layer words it on the device. */
  private static String listenFailed(int errno, String named) {
    return "rpma_ep_listen failed: RPMA_E_PROVIDER (Provider error occurred), errno " + errno
        + " " + named;
  }

  private static void refuseSharedChannel(ConnectionOptions options) {
    if (options.isSharedCompletionChannel()) {
      throw new UnsupportedOperationException("the test kit does not model a shared completion"
          + " channel: set sharedCompletionChannel false in tests on the test kit");
    }
  }

  @Override
  public MadeQueue newSharedQueue(int rqSize, int rcqSize, int drainBatch) {
    KitSharedQueue queue = new KitSharedQueue(device);
    device.addSharedQueue(queue);
    return new MadeQueue(queue.handle(), queue);
  }

  @Override
  public long flushType(FlushType type) {
    return type.ordinal();
  }

  @Override
  public RuntimeException lackingFds() {
    return null; // the test kit's fds are numbers, never short
  }

  @Override
  public void delete() {
    // a protection domain on the in-JVM device holds nothing once its regions are gone
  }
}
