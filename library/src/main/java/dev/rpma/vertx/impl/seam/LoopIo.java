package dev.rpma.vertx.impl.seam;

/**
 * How the engine waits on its event loop (the other seam, beside {@link LibrpmaConnection}):
 * {@code impl.loop.EpollLoopIo} puts fds in the Netty epoll loop's set,
 * {@code impl.loop.IoUringLoopIo} polls them on the io_uring loop's ring (one or the other per
 * context: {@code LoopContexts.loopIo}); the host tests fire them by hand.
 */
public interface LoopIo {

  /**
   * A watch of {@code fd}, not yet started; {@code onReadable} runs on the owning context when
   * the fd is readable, at most once per I/O phase of the loop, and again at a later phase if
   * it left the fd readable (level triggered, on epoll and on io_uring alike).
   */
  FdWatch watch(int fd, Runnable onReadable);

  /** A new fd of our own that can be made readable: the drain continuation's wake-up. */
  WakeupFd newWakeupFd();

  /**
   * The loop's time and timers, the engine's only ones (the same for every call): production's
   * read System.nanoTime and set the context's timers; the host tests' run in virtual time.
   */
  EngineClock clock();

  /** An fd watched by the loop. */
  interface FdWatch {
    /** Adds it; completes once it is there. */
    io.vertx.core.Future<Void> start();

    /**
     * Removes it; completes after the loop let go of it (then its owner may close it): after
     * EPOLL_CTL_DEL, or after the io_uring poll's last completion. No readiness is delivered
     * once it was called. On the loop.
     */
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
