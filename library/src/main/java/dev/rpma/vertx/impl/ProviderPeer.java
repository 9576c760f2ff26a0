package dev.rpma.vertx.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A peer on a device as the facades call it ({@link RpmaProvider}): regions, connections,
 * listeners and shared receive queues made on it. The calls that may block (all but
 * {@link #flushType} and {@link #lackingFds}) run on the peer's set-up worker
 * ({@code PeerImpl.blocking}), one at a time; failures are thrown with their cause and fix.
 */
public interface ProviderPeer {

  /** The device's name, for messages and {@code RpmaPeer.deviceName()}. */
  String deviceName();

  /** What the device allows (queue sizes are checked against it before a connect or listen). */
  DeviceLimits limits();

  /** The kernel's index of the device, where connections' addresses are read; -1 if none. */
  int deviceIndex();

  /** Registers the whole {@code view} for {@code usages}: its handle and descriptor. */
  Registered register(ByteBuffer view, Set<MemoryUsage> usages);

  /** Deregisters the region of {@code handle}. */
  void deregister(long handle);

  /**
   * A connection to {@code address}:{@code port} requested (not established yet: its engine
   * hears ESTABLISHED or why not), its queue pair attached to shared receive queue
   * {@code srq} (0 for none).
   */
  LibrpmaConnection connect(String address, int port, ConnectionOptions options,
      byte[] privateData, long srq, ConnectAttempt attempt);

  /** Listens on {@code address}:{@code port} (0: a free port): the endpoint and its port. */
  Listening listen(String address, int port, ConnectionOptions options, long srq);

  /** A shared receive queue of {@code rqSize} receives, its CQ of {@code rcqSize}. */
  MadeQueue newSharedQueue(int rqSize, int rcqSize, int drainBatch);

  /** The flush type value a flush of {@code type} posts ({@code OpKind.FLUSH}'s extra). */
  long flushType(FlushType type);

  /** Why an accept now would fail for want of fds (with the fix), or null. On the loop. */
  RuntimeException lackingFds();

  /** Deletes the peer, once what was made on it is gone. */
  void delete();

  /** A registered region. */
  record Registered(long handle, byte[] descriptor) {
  }

  /** A listening endpoint and the port it listens on. */
  record Listening(LibrpmaEndpoint endpoint, int port) {
  }

  /** A shared receive queue and its handle (what a connect or listen attaches to). */
  record MadeQueue(long handle, LibrpmaSharedQueue queue) {
  }
}
