package dev.rpma.vertx.impl.engine;


import dev.rpma.vertx.impl.jni.EventFd;

/**
 * Continues a drain that used up its budget from the loop's I/O phase, not from a task: an
 * eventfd watched on the same loop, signalled when the budget runs out.
 *
 * <p>Leftover completions raise no new CQ event, so the rest must be drained on our own
 * initiative; but as a task it would starve the loop's other I/O: Netty 4.2 runs tasks until
 * its quantum (up to 1 s) before it polls I/O again, and a busy connection always has one more.
 * A readable eventfd instead takes its turn among the loop's other ready fds.
 */
public final class DrainContinuation {

  private final EventFd eventFd = EventFd.open();
  private final Runnable drain;
  private boolean signalled;

  public DrainContinuation(Runnable drain) {
    this.drain = drain;
  }

  public int fd() {
    return eventFd.fd();
  }

  /** Asks for one more drain at the loop's next I/O phase; on the loop. */
  public void request() {
    if (!signalled) {
      signalled = true;
      eventFd.signal();
    }
  }

  /** The eventfd is readable: reset it, then drain. */
  public void onReadable() {
    eventFd.reset();
    signalled = false;
    drain.run();
  }

  /** Once the fd is out of the epoll set. */
  public void close() {
    try {
      eventFd.close();
    } catch (IllegalStateException e) {
      // nothing to do: the number is released either way
    }
  }
}
