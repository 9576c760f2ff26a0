package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.impl.seam.LoopIo;

/**
 * A Linux eventfd of our own (non-blocking), a typed handle over the raw fd: the drain
 * continuation's wake-up ({@link LoopIo.WakeupFd}), without Netty's internal
 * {@code io.netty.channel.epoll.Native}. The bench gets it as {@code internal.EventFd}.
 */
public final class JniEventFd implements LoopIo.WakeupFd, AutoCloseable {

  private final int fd;
  private boolean closed;

  private JniEventFd(int fd) {
    this.fd = fd;
  }

  /** A new eventfd; throws with errno if the process is out of fds. */
  public static JniEventFd open() {
    Native.ensureLoaded();
    int fd = Native.eventFdNew();
    if (fd < 0) {
      throw new IllegalStateException("eventfd() failed, errno " + (-fd)
          + (-fd == NativeConstants.EMFILE
              ? " (EMFILE: the process is at its open-file limit; each connection end takes 3"
                + " fds: raise it with ulimit -n or LimitNOFILE=, or close connections)" : ""));
    }
    return new JniEventFd(fd);
  }

  @Override
  public int fd() {
    return fd;
  }

  /** Makes it readable (adds one to its counter); any thread. */
  @Override
  public void signal() {
    check("eventfd_write", Native.eventFdSignal(fd));
  }

  /** Reads its counter back to zero, so it stops being readable. */
  @Override
  public void reset() {
    check("eventfd_read", Native.eventFdReset(fd));
  }

  /** Closes the fd: only once it is out of every epoll set. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      check("close", Native.fdClose(fd));
    }
  }

  private void check(String call, int rc) {
    if (rc < 0) {
      throw new IllegalStateException(call + " on eventfd " + fd + " failed, errno " + (-rc));
    }
  }
}
