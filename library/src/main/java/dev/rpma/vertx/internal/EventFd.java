package dev.rpma.vertx.internal;

import dev.rpma.vertx.impl.jni.JniEventFd;

/**
 * A non-blocking Linux eventfd, the one the library's drain continuation uses: for the
 * benchmarks' loop probe, so it needs no Netty internals.
 */
public final class EventFd implements AutoCloseable {

  private final JniEventFd fd = JniEventFd.open();

  /** Made by {@link #open()} only. */
  private EventFd() {
  }

  /** A new eventfd; throws with errno if the process is out of fds. */
  public static EventFd open() {
    return new EventFd();
  }

  public int fd() {
    return fd.fd();
  }

  /** Makes it readable; any thread. */
  public void signal() {
    fd.signal();
  }

  /** Reads its counter back to zero. */
  public void reset() {
    fd.reset();
  }

  /** Closes the fd: only once it is out of every epoll set. */
  @Override
  public void close() {
    fd.close();
  }
}
