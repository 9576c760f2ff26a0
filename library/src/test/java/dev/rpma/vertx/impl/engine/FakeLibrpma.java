package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.OpKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A librpma connection in memory, for the engine's host tests: records every call in
 * {@link #log} (shared with {@link FakeLoopIo}, so order across both shows), keeps what was
 * posted, and hands out the completions and CM events a test queues. Never counts as a device
 * test: it checks the engine's logic, not librpma's.
 */
final class FakeLibrpma implements LibrpmaConnection {

  /** One posted work request; {@code signalled}: with a completion of its own. */
  record Post(byte kind, long localMr, long localOffset, long remoteMr, long remoteOffset,
      long length, long extra, long wrId, boolean signalled) {
  }

  /** A completion the device will report. */
  record Wc(long wrId, int status, int byteLength, boolean hasImm, int imm) {
  }

  /** A CQ whose completions a test queues; fds 100 (main), 101 (receive). */
  final class FakeCq implements CompletionSource {
    final int fd;
    final ArrayDeque<Wc> ready = new ArrayDeque<>();
    int eventsConsumed;
    int polls;
    /** Its polls, through one reused buffer ({@code polled.nested}: drains inside drains). */
    final OneBufferPolls<Wc> polled = new OneBufferPolls<>();
    /** Thrown by the next polls: a RuntimeException as librpma's failures, or an Error. */
    Throwable failure;

    FakeCq(int fd) {
      this.fd = fd;
    }

    @Override
    public int fd() {
      return fd;
    }

    @Override
    public int drain(boolean consumeEvent, int max, CompletionSink sink) {
      if (failure != null) {
        throw unchecked(failure);
      }
      if (consumeEvent) {
        eventsConsumed++;
      }
      polls++;
      return polled.poll(ready, max, c ->
          sink.onCompletion(c.wrId(), c.status(), 0, c.byteLength(), c.hasImm(), c.imm(), 0));
    }
  }

  final List<String> log;
  final List<Post> posted = new ArrayList<>();
  final ArrayDeque<CmEvent> events = new ArrayDeque<>();
  final FakeCq main = new FakeCq(100);
  FakeCq recv;
  Throwable refuseNextPost;
  /** Thrown by the next post that asks for a completion of its own. */
  Throwable refuseNextSignalledPost;
  RuntimeException failMainCq;
  Throwable failNextEvent;
  /** Thrown by disconnect, e.g. an Error from a native call. */
  Throwable failDisconnect;
  boolean disconnectAccepted = true;
  byte[] appliedPeerCfg;
  int sharedWaits;

  FakeLibrpma(List<String> log) {
    this.log = log;
  }

  /** Completes a posted operation successfully, on the main CQ. */
  void complete(Post p) {
    main.ready.add(new Wc(p.wrId(), 0, (int) p.length(), false, 0));
  }

  void fail(Post p, int status) {
    main.ready.add(new Wc(p.wrId(), status, 0, false, 0));
  }

  Post last() {
    return posted.get(posted.size() - 1);
  }

  @Override
  public void post(byte kind, long localMr, long localOffset, long remoteMr, long remoteOffset,
      long length, long extra, long wrId, boolean signalled) {
    if (refuseNextPost != null) {
      Throwable e = refuseNextPost;
      refuseNextPost = null;
      log.add("refused " + OpKind.name(kind));
      throw unchecked(e);
    }
    if (signalled && refuseNextSignalledPost != null) {
      Throwable e = refuseNextSignalledPost;
      refuseNextSignalledPost = null;
      log.add("refused " + OpKind.name(kind));
      throw unchecked(e);
    }
    log.add("post " + OpKind.name(kind) + (signalled ? "" : " unsignalled"));
    posted.add(new Post(kind, localMr, localOffset, remoteMr, remoteOffset, length, extra, wrId,
        signalled));
  }

  @Override
  public int qpNum() {
    return 7;
  }

  @Override
  public int eventFd() {
    return 200;
  }

  @Override
  public CmEvent nextEvent() {
    if (failNextEvent != null) {
      Throwable e = failNextEvent;
      failNextEvent = null;
      throw unchecked(e);
    }
    CmEvent e = events.poll();
    return e == null ? CmEvent.NONE : e;
  }

  @Override
  public byte[] privateData() {
    return new byte[] {42};
  }

  @Override
  public void applyRemotePeerConfig(byte[] descriptor) {
    appliedPeerCfg = descriptor;
  }

  @Override
  public CompletionSource mainCq() {
    if (failMainCq != null) {
      throw failMainCq;
    }
    return main;
  }

  @Override
  public CompletionSource recvCq() {
    return recv;
  }

  @Override
  public int sharedChannelFd() {
    return 300;
  }

  @Override
  public void waitSharedChannel() {
    sharedWaits++;
  }

  @Override
  public boolean disconnect() {
    log.add("disconnect");
    if (failDisconnect != null) {
      throw unchecked(failDisconnect);
    }
    return disconnectAccepted;
  }

  @Override
  public String statusText(int status) {
    return "status " + status;
  }

  @Override
  public void delete() {
    log.add("delete");
  }

  /** {@code t} thrown as it is: an Error, or a RuntimeException (what a fake may throw). */
  static RuntimeException unchecked(Throwable t) {
    if (t instanceof Error e) {
      throw e;
    }
    return (RuntimeException) t;
  }
}
