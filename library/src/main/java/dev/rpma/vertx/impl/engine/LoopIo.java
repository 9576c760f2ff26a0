package dev.rpma.vertx.impl.engine;

/**
 * How the engine waits on its event loop (the other seam, beside {@link LibrpmaConnection}):
 * {@link EpollLoopIo} puts fds in the Netty epoll loop's set; the host tests fire them by hand.
 */
public interface LoopIo {

  /** A watch of {@code fd}, not yet started; {@code onReadable} runs on the owning context. */
  FdWatch watch(int fd, Runnable onReadable);

  /** A new fd of our own that can be made readable: the drain continuation's wake-up. */
  WakeupFd newWakeupFd();

  /** An fd in the loop's set. */
  interface FdWatch {
    /** Adds it; completes once it is there. */
    io.vertx.core.Future<Void> start();

    /** Removes it; completes after the loop let go of it (then its owner may close it). */
    io.vertx.core.Future<Void> unwatch();
  }

  /** An eventfd-like fd: readable from {@link #signal()} until {@link #reset()}. */
  interface WakeupFd {
    int fd();

    void signal();

    void reset();

    /** Only once it is out of the loop's set. */
    void close();
  }
}
