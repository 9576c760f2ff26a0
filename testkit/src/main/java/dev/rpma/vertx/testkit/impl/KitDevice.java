package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.impl.seam.CmEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The in-JVM device one {@code RpmaTestKit} is: its fds, regions, listeners and connections,
 * and the faults injected into it. One lock (this object) guards its state: operations of
 * connections on different loops meet in the same memory, as on a device.
 */
public final class KitDevice {

  /** Fds of the in-JVM device: far above any real fd, so that a mix-up cannot go unseen. */
  private static final int FIRST_FD = 1 << 24;

  private final Map<Integer, KitFd> fds = new HashMap<>();
  private final Map<Long, KitRegion> regions = new HashMap<>();
  private final Map<String, KitEndpoint> listeners = new HashMap<>();
  /** The addresses its peers were opened on: the kit's host has an interface at each. */
  private final Set<String> hostAddresses = new HashSet<>();
  private final Map<Long, KitSharedQueue> sharedQueues = new HashMap<>();
  private final List<KitConnection> connections = new ArrayList<>();
  private final Faults faults = new Faults();
  /** How many kits were made: each kit's handles start at its number times 2^40. */
  private static final AtomicLong KITS = new AtomicLong();
  /**
   * Every kit's listeners in this JVM, by address:port: a connect that finds none on its own
   * kit but one on another is refused as unmodelled, not told that nothing listens.
   */
  private static final Map<String, Set<KitDevice>> LISTENING_KITS = new ConcurrentHashMap<>();

  private final KitDescriptors descriptors = KitDescriptors.instance();
  private int nextFd = FIRST_FD;
  private int nextQpNum = 17;
  private long nextHandle = (KITS.incrementAndGet() << 40) + 1;
  private int nextPort = 40000;

  synchronized KitFd newFd(BooleanSupplier readable) {
    KitFd fd = new KitFd(nextFd++, readable);
    fds.put(fd.number(), fd);
    return fd;
  }

  synchronized KitFd fd(int number) {
    KitFd fd = fds.get(number);
    if (fd == null) {
      throw new IllegalStateException("fd " + number + " is not one of the test kit's");
    }
    return fd;
  }

  synchronized void closeFd(KitFd fd) {
    fd.unwatch();
    fds.remove(fd.number());
  }

  synchronized int nextQpNum() {
    return nextQpNum++;
  }

  synchronized long nextHandle() {
    return nextHandle++;
  }

  Faults faults() {
    return faults;
  }

  KitDescriptors descriptors() {
    return descriptors;
  }

  /** The next operation posted fails with {@code status} (its queue pair then in error). */
  public synchronized void failNext(int status) {
    faults.failNext(status);
  }

  /** Every completion from now on arrives {@code ms} later (0: at once). */
  public synchronized void latencyMs(long ms) {
    faults.latencyMs(ms);
  }

  /** Completions are held back from now until {@link #resumeCompletions()}. */
  public synchronized void stallCompletions() {
    faults.stall();
  }

  /** The completions held back arrive, in order. */
  public void resumeCompletions() {
    java.util.List<Runnable> held;
    synchronized (this) {
      held = faults.resume();
    }
    held.forEach(Runnable::run);
  }

  /** A peer opened at {@code address}: the kit's host has an interface there. */
  synchronized void peerOpenedAt(String address) {
    hostAddresses.add(address);
  }

  /** Whether a peer of this kit was opened at {@code address}. */
  synchronized boolean isHostAddress(String address) {
    return hostAddresses.contains(address);
  }

  synchronized void addRegion(KitRegion region) {
    regions.put(region.handle(), region);
  }

  synchronized void removeRegion(long handle) {
    regions.remove(handle);
  }

  /** The region of {@code handle}, null if none (never registered, or deregistered). */
  synchronized KitRegion region(long handle) {
    return regions.get(handle);
  }

  synchronized void addSharedQueue(KitSharedQueue queue) {
    sharedQueues.put(queue.handle(), queue);
  }

  synchronized KitSharedQueue sharedQueue(long handle) {
    return handle == 0 ? null : sharedQueues.get(handle);
  }

  synchronized void removeSharedQueue(long handle) {
    sharedQueues.remove(handle);
  }

  /** Listens at {@code address}:{@code port} (0: a free port); its port, -1 if taken. */
  synchronized int listen(String address, int port, KitEndpoint endpoint) {
    int p = port;
    if (p == 0) {
      while (listeners.containsKey(address + ":" + nextPort)) {
        nextPort++;
      }
      p = nextPort++;
    }
    if (listeners.putIfAbsent(address + ":" + p, endpoint) != null) {
      return -1;
    }
    LISTENING_KITS.computeIfAbsent(address + ":" + p, k -> ConcurrentHashMap.newKeySet())
        .add(this);
    return p;
  }

  synchronized void stopListening(String address, int port) {
    if (listeners.remove(address + ":" + port) != null) {
      LISTENING_KITS.computeIfPresent(address + ":" + port,
          (k, kits) -> kits.remove(this) && kits.isEmpty() ? null : kits);
    }
  }

  /**
   * Refuses a connect to {@code address}:{@code port} that only another kit listens on: two
   * kits are two devices no wire joins (a second host), which the kit does not model.
   */
  synchronized void refuseAnotherKitsListener(String address, int port) {
    String key = address + ":" + port;
    if (listeners.containsKey(key)) {
      return;
    }
    Set<KitDevice> kits = LISTENING_KITS.get(key);
    if (kits != null && !kits.isEmpty()) {
      throw new UnsupportedOperationException("the test kit cannot connect to " + key + ": a"
          + " server listens there on another RpmaTestKit, and two kits are two devices that"
          + " no wire joins (a second host, which the kit does not model). Open the client's"
          + " and the server's peers from one RpmaTestKit, or test across hosts on the device");
    }
  }

  /**
   * A client's connection request to {@code address}:{@code port}: to its listener, else
   * rejected as the RDMA CM rejects it when nothing listens (reason 8, invalid service ID).
   */
  synchronized void request(KitConnection client, String address, int port, byte[] privateData) {
    connections.add(client);
    KitEndpoint listener = listeners.get(address + ":" + port);
    if (listener == null) {
      client.event(CmEvent.REJECTED, 8);
      return;
    }
    listener.offer(client, privateData);
  }

  synchronized void track(KitConnection connection) {
    connections.add(connection);
  }

  synchronized void forget(KitConnection connection) {
    connections.remove(connection);
  }

  /** Every connection is lost (both ends hear LOST, their queue pairs fail). */
  public synchronized void dropConnections() {
    for (KitConnection c : new ArrayList<>(connections)) {
      c.lose();
    }
  }

  /** Delivers the sends that wait in {@code rq} to the receives posted there, in order. */
  synchronized void match(KitReceiveQueue rq) {
    while (!rq.receives.isEmpty() && !rq.waiting.isEmpty()) {
      KitReceiveQueue.Receive r = rq.receives.poll();
      KitReceiveQueue.Send s = rq.waiting.poll();
      int length = s.data().length;
      if (length > r.length()) {
        // as rxe: the sender hears a remote operation error, the receiver a local QP error
        s.from().complete(s.from().mainCqOf(), s.wrId(), WcStatus.REM_OP_ERR, 0);
        s.to().received(rq.cq(), r.wrId(), WcStatus.LOC_QP_OP_ERR, 0, false, 0);
        s.from().failQueuePair();
        s.to().failQueuePair();
        continue;
      }
      if (length > 0 && (r.region() == null || !r.region().locallyWritable()
          || !r.region().inRange(r.offset(), length))) {
        s.from().complete(s.from().mainCqOf(), s.wrId(), WcStatus.REM_OP_ERR, 0);
        s.to().received(rq.cq(), r.wrId(), WcStatus.LOC_PROT_ERR, 0, false, 0);
        s.from().failQueuePair();
        s.to().failQueuePair();
        continue;
      }
      if (length > 0) {
        r.region().write(r.offset(), s.data(), length);
      }
      s.to().received(rq.cq(), r.wrId(), WcStatus.SUCCESS, length, s.hasImm(), s.imm());
      s.from().complete(s.from().mainCqOf(), s.wrId(), WcStatus.SUCCESS, length);
    }
  }
}
