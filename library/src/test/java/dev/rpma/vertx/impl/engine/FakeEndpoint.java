package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.RpmaException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A listening endpoint in memory, for the server engine's host tests: hands out the requests a
 * test queues, or the failure it sets, and logs every call that changes something to the
 * shared log. Never counts as a device test.
 */
final class FakeEndpoint implements LibrpmaEndpoint {

  static final int FD = 400;

  /** A connection request; its deletes and connects are logged as "delete 1", "connect 1". */
  final class FakeRequest implements LibrpmaRequest {
    final int id;
    final byte[] privateData;
    /** Thrown by privateData(), e.g. an Error of a class not loadable. */
    Throwable failPrivateData;

    FakeRequest(int id, byte[] privateData) {
      this.id = id;
      this.privateData = privateData;
    }

    @Override
    public byte[] privateData() {
      if (failPrivateData != null) {
        throw FakeLibrpma.unchecked(failPrivateData);
      }
      return privateData;
    }

    @Override
    public void postReceive(long localMr, long localOffset, long length, long wrId) {
      log.add("recv " + id);
    }

    @Override
    public LibrpmaConnection connect(byte[] privateData, int drainBatch) {
      log.add("connect " + id);
      return new FakeLibrpma(log);
    }

    @Override
    public void delete() {
      log.add("delete " + id);
    }
  }

  private final List<String> log;
  /** What nextRequest gives, in order: FakeRequests, or RuntimeExceptions it throws. */
  final ArrayDeque<Object> pending = new ArrayDeque<>();
  /** Thrown by fd(): the endpoint's fd cannot be had. */
  RuntimeException failFd;
  private int nextId = 1;

  FakeEndpoint(List<String> log) {
    this.log = log;
  }

  /** A client's connect request arrives. */
  FakeRequest arrive() {
    FakeRequest request = new FakeRequest(nextId++, new byte[] {7});
    pending.add(request);
    return request;
  }

  /** rpma_ep_next_conn_req will fail with this errno (e.g. EMFILE: the fd limit). */
  void failNext(int errno) {
    pending.add(new RpmaException("rpma_ep_next_conn_req failed: errno " + errno, -1, errno));
  }

  @Override
  public int fd() {
    if (failFd != null) {
      throw failFd;
    }
    return FD;
  }

  @Override
  public LibrpmaRequest nextRequest() {
    Object next = pending.poll();
    if (next instanceof RuntimeException e) {
      throw e;
    }
    return (LibrpmaRequest) next;
  }

  @Override
  public void shutdown() {
    log.add("shutdown");
  }
}
