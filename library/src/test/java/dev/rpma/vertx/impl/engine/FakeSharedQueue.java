package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.CompletionSink;
import dev.rpma.vertx.impl.seam.CompletionSource;
import dev.rpma.vertx.impl.seam.LibrpmaSharedQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A librpma shared receive queue in memory, for the host tests of {@link SharedQueueEngine}:
 * logs every call to the shared log, keeps the receives posted, and hands out the completions
 * a test queues on its receive CQ (fd 300), each with the queue pair it arrived on, a batch at
 * a time through one reused buffer, as JniCompletionQueue does.
 */
final class FakeSharedQueue implements LibrpmaSharedQueue {

  static final int RCQ_FD = 300;

  /** One receive posted to the queue. */
  record Recv(long localMr, long offset, long length, long wrId) {
  }

  /** A completion the device will report. */
  record Wc(long wrId, int status, int byteLength, boolean hasImm, int imm, int qpNum) {
  }

  final List<String> log;
  final List<Recv> posted = new ArrayList<>();
  final ArrayDeque<Wc> ready = new ArrayDeque<>();
  RuntimeException refuseNextRecv;
  /** Thrown by the next polls: a RuntimeException as librpma's failures, or an Error. */
  Throwable failCq;
  /** Its receive CQ's polls, through one reused buffer ({@code polled.nested}: nested drains). */
  final OneBufferPolls<Wc> polled = new OneBufferPolls<>();
  boolean deleted;

  FakeSharedQueue(List<String> log) {
    this.log = log;
  }

  /** The message of {@code bytes} bytes arrived in receive {@code r} on queue pair {@code qp}. */
  void arrive(Recv r, int qp, int bytes) {
    ready.add(new Wc(r.wrId(), 0, bytes, false, 0, qp));
  }

  @Override
  public void recv(long localMr, long offset, long length, long wrId) {
    if (refuseNextRecv != null) {
      RuntimeException e = refuseNextRecv;
      refuseNextRecv = null;
      log.add("refused recv");
      throw e;
    }
    log.add("srq recv");
    posted.add(new Recv(localMr, offset, length, wrId));
  }

  @Override
  public CompletionSource receiveCq() {
    return new CompletionSource() {
      @Override
      public int fd() {
        return RCQ_FD;
      }

      @Override
      public int drain(boolean consumeEvent, int max, CompletionSink sink) {
        if (failCq != null) {
          throw FakeLibrpma.unchecked(failCq);
        }
        return polled.poll(ready, max, c -> sink.onCompletion(c.wrId(), c.status(), 0,
            c.byteLength(), c.hasImm(), c.imm(), c.qpNum()));
      }
    };
  }

  @Override
  public String statusText(int status) {
    return "status " + status;
  }

  @Override
  public void delete() {
    log.add("srq delete");
    deleted = true;
  }
}
