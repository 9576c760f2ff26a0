package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.DeviceRefusals;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * One end of a connection on the in-JVM device (a queue pair and its CM id): operations run on
 * the device at once, under its lock, with the device's access checks; their completions reach
 * the CQs through the injected faults. An error completion puts the queue pair in the error
 * state, as on RC: what is posted after it is flushed.
 */
final class KitConnection implements LibrpmaConnection {

  private final KitDevice device;
  private final KitPeer owner;
  private final int qpNum;
  private final KitCq mainCq;
  private final KitCq recvCq;
  private final KitReceiveQueue receiveQueue;
  private final ArrayDeque<CmEvent> events = new ArrayDeque<>();
  private final KitFd eventFd;
  private int lastStatus;
  private KitConnection remote;
  private byte[] remotePrivateData = new byte[0];
  private boolean error;
  private boolean disconnected;
  /** Whether the remote peer's applied configuration says it writes to persistence. */
  private volatile boolean remoteDirectWrite;

  /** {@code shared}: the shared receive queue it takes messages from, or null. */
  KitConnection(KitDevice device, KitPeer owner, boolean ownRecvCq, KitSharedQueue shared) {
    this.device = device;
    this.owner = owner;
    this.qpNum = device.nextQpNum();
    this.mainCq = new KitCq(device);
    this.recvCq = ownRecvCq && shared == null ? new KitCq(device) : null;
    this.receiveQueue = shared != null ? shared.receiveQueue()
        : new KitReceiveQueue(recvCq != null ? recvCq : mainCq);
    this.eventFd = device.newFd(this::hasEvent);
  }

  private boolean hasEvent() {
    synchronized (device) {
      return !events.isEmpty();
    }
  }

  /** A CM event for its engine (under the device's lock). */
  void event(CmEvent event, int status) {
    events.add(event);
    lastStatus = status;
    eventFd.poke();
  }

  /** Connected to {@code other}, which sent {@code privateData} (under the device's lock). */
  void established(KitConnection other, byte[] privateData) {
    remote = other;
    remotePrivateData = privateData != null ? privateData : new byte[0];
    event(CmEvent.ESTABLISHED, 0);
  }

  boolean isDisconnected() {
    return disconnected;
  }

  KitReceiveQueue receiveQueue() {
    return receiveQueue;
  }

  @Override
  public void post(byte kind, long localMr, long localOffset, long remoteMr, long remoteOffset,
      long length, long extra, long wrId, boolean signalled) {
    if (kind == OpKind.FLUSH && extra == FlushType.PERSISTENT.ordinal() && !remoteDirectWrite) {
      // refused when posted, as librpma refuses it (RPMA_E_NOSUPP)
      throw DeviceRefusals.persistentFlushWithoutPeerConfig(null);
    }
    synchronized (device) {
      KitCq cq = OpKind.isReceive(kind) ? receiveQueue.cq() : mainCq;
      Integer injected = device.faults().takeFailure();
      if (error || injected != null) {
        complete(cq, wrId, error ? WcStatus.WR_FLUSH_ERR : injected, 0);
        failQueuePair();
        return;
      }
      KitRegion local = localMr != 0 ? device.region(localMr) : null;
      if (kind == OpKind.RECV) {
        receiveQueue.receives.add(new KitReceiveQueue.Receive(local, localOffset, length, wrId));
        device.match(receiveQueue);
        return;
      }
      int status = run(kind, local, localOffset, remoteMr, remoteOffset, (int) length, extra,
          wrId);
      // unsignalled (RPMA_F_COMPLETION_ON_ERROR): a completion only if it failed
      if (status >= 0 && (signalled || status != WcStatus.SUCCESS)) {
        complete(mainCq, wrId, status, (int) length);
        if (status != WcStatus.SUCCESS) {
          failQueuePair();
        }
      }
    }
  }

  /** Runs one operation; its status, or -1 if it completes later (a send waiting). */
  private int run(byte kind, KitRegion local, long localOffset, long remoteMr, long remoteOffset,
      int length, long extra, long wrId) {
    boolean usesLocal = kind != OpKind.FLUSH && kind != OpKind.ATOMIC_WRITE;
    if (usesLocal && (local == null ? length > 0
        : local.owner() != owner || !local.inRange(localOffset, length))) {
      return WcStatus.LOC_PROT_ERR;
    }
    if (kind == OpKind.SEND || kind == OpKind.SEND_WITH_IMM) {
      byte[] data = local != null ? local.read(localOffset, length) : new byte[0];
      return sendToRemote(data, kind == OpKind.SEND_WITH_IMM, (int) extra, wrId);
    }
    if (length == 0 && (kind == OpKind.READ || kind == OpKind.WRITE)) {
      return WcStatus.SUCCESS; // a zero-byte read or write: the device checks no key for it
    }
    KitRegion target = device.region(remoteMr);
    if (target == null || remote == null || target.owner() != remote.owner
        || !target.inRange(remoteOffset, kind == OpKind.FLUSH ? 0 : length)) {
      return WcStatus.REM_ACCESS_ERR;
    }
    switch (kind) {
      case OpKind.READ -> {
        if (!target.usages().contains(MemoryUsage.READ_SRC)) {
          return WcStatus.REM_ACCESS_ERR;
        }
        if (length > 0 && !local.locallyWritable()) {
          return WcStatus.LOC_PROT_ERR;
        }
        if (length > 0) {
          local.write(localOffset, target.read(remoteOffset, length), length);
        }
      }
      case OpKind.WRITE, OpKind.WRITE_WITH_IMM -> {
        if (!target.usages().contains(MemoryUsage.WRITE_DST)) {
          return WcStatus.REM_ACCESS_ERR;
        }
        if (length > 0) {
          target.write(remoteOffset, local.read(localOffset, length), length);
        }
        if (kind == OpKind.WRITE_WITH_IMM) {
          return sendToRemote(new byte[0], true, (int) extra, wrId);
        }
      }
      case OpKind.ATOMIC_WRITE -> {
        if (!target.usages().contains(MemoryUsage.WRITE_DST)) {
          return WcStatus.REM_ACCESS_ERR;
        }
        byte[] value = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(extra)
            .array();
        target.write(remoteOffset, value, 8);
      }
      case OpKind.FLUSH -> {
        if (!target.usages().contains(MemoryUsage.FLUSH_VISIBILITY)
            && !target.usages().contains(MemoryUsage.FLUSH_PERSISTENT)) {
          return WcStatus.REM_ACCESS_ERR;
        }
      }
      default -> throw new IllegalArgumentException("unknown operation " + kind);
    }
    return WcStatus.SUCCESS;
  }

  /** A message into the remote end's next receive: now, or when one is posted. */
  private int sendToRemote(byte[] data, boolean hasImm, int imm, long wrId) {
    if (remote == null || remote.error) {
      return WcStatus.WR_FLUSH_ERR;
    }
    KitReceiveQueue rq = remote.receiveQueue;
    rq.waiting.add(new KitReceiveQueue.Send(this, remote, data, hasImm, imm, wrId));
    device.match(rq);
    return -1;
  }

  /** A completion of this end's (under the device's lock). */
  void complete(KitCq cq, long wrId, int status, int byteLength) {
    completeWith(cq, new KitCq.Wc(wrId, status, byteLength, false, 0, qpNum));
  }

  /** A receive of this end's, completed with a message. */
  void received(KitCq cq, long wrId, int status, int byteLength, boolean hasImm, int imm) {
    completeWith(cq, new KitCq.Wc(wrId, status, byteLength, hasImm, imm, qpNum));
  }

  KitCq mainCqOf() {
    return mainCq;
  }

  private void completeWith(KitCq cq, KitCq.Wc wc) {
    device.faults().deliver(owner.vertx(), cq, wc);
  }

  /**
   * The error state: its receives (unless shared) and its sends waiting for a receive are
   * flushed, and so is everything posted later.
   */
  void failQueuePair() {
    error = true;
    if (receiveQueue.cq() != null && recvCqOwned()) {
      for (KitReceiveQueue.Receive r : receiveQueue.receives) {
        complete(receiveQueue.cq(), r.wrId(), WcStatus.WR_FLUSH_ERR, 0);
      }
      receiveQueue.receives.clear();
    }
    if (remote != null) {
      remote.receiveQueue.waiting.removeIf(s -> {
        if (s.from() == this) {
          complete(mainCq, s.wrId(), WcStatus.WR_FLUSH_ERR, 0);
          return true;
        }
        return false;
      });
    }
  }

  private boolean recvCqOwned() {
    return receiveQueue.cq() == mainCq || receiveQueue.cq() == recvCq;
  }

  /**
   * This end goes to the error state and both hear {@code event} (a drop, a disconnect). The
   * other end's queue pair is flushed when its engine answers with its own disconnect: on the
   * device its engine hears the event first, so what it had posted fails as closed.
   */
  void end(CmEvent event) {
    failQueuePair();
    if (!disconnected) {
      disconnected = true;
      this.event(event, 0);
    }
    KitConnection other = remote;
    if (other != null && !other.disconnected) {
      other.disconnected = true;
      other.event(event, 0);
    }
  }

  /**
   * The link is gone: it hears LOST; its engine's disconnect then flushes what it had posted
   * (under the device's lock).
   */
  void lose() {
    if (!disconnected) {
      disconnected = true;
      event(CmEvent.LOST, 0);
    }
  }

  @Override
  public int qpNum() {
    return qpNum;
  }

  @Override
  public int eventFd() {
    return eventFd.number();
  }

  @Override
  public CmEvent nextEvent() {
    synchronized (device) {
      CmEvent e = events.poll();
      return e != null ? e : CmEvent.NONE;
    }
  }

  @Override
  public int eventStatus() {
    synchronized (device) {
      return lastStatus;
    }
  }

  @Override
  public byte[] privateData() {
    synchronized (device) {
      return remotePrivateData.clone();
    }
  }

  @Override
  public void applyRemotePeerConfig(byte[] peerCfgDescriptor) {
    // persists nothing, but allows a persistent flush as librpma does (direct_write_to_pmem)
    remoteDirectWrite = PeerConfig.fromDescriptor(peerCfgDescriptor).directWriteToPmem();
  }

  @Override
  public CompletionSource mainCq() {
    return mainCq;
  }

  @Override
  public CompletionSource recvCq() {
    return recvCq;
  }

  @Override
  public int sharedChannelFd() {
    throw new UnsupportedOperationException("the test kit has no shared completion channel");
  }

  @Override
  public void waitSharedChannel() {
    throw new UnsupportedOperationException("the test kit has no shared completion channel");
  }

  @Override
  public boolean disconnect() {
    synchronized (device) {
      end(CmEvent.CLOSED);
      return true;
    }
  }

  @Override
  public String statusText(int status) {
    return WcStatus.text(status);
  }

  @Override
  public void delete() {
    synchronized (device) {
      if (!disconnected) {
        end(CmEvent.CLOSED);
      }
    }
    mainCq.close();
    if (recvCq != null) {
      recvCq.close();
    }
    device.closeFd(eventFd);
    device.forget(this);
  }
}
