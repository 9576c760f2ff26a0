package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LoopIo;

/**
 * Continues a drain that used up its budget from the loop's I/O phase, not from a task: a
 * wake-up fd (an eventfd) watched on the same loop, signalled when the budget runs out.
 *
 * <p>Leftover completions raise no new CQ event, so the rest must be drained on our own
 * initiative; but as a task it would starve the loop's other I/O: Netty 4.2 runs tasks until
 * its quantum (up to 1 s) before it polls I/O again, and a busy connection always has one more.
 * A readable eventfd instead takes its turn among the loop's other ready fds.
 */
final class DrainContinuation {

  private final LoopIo.WakeupFd wakeup;
  private final Runnable drain;
  private boolean signalled;

  DrainContinuation(LoopIo.WakeupFd wakeup, Runnable drain) {
    this.wakeup = wakeup;
    this.drain = drain;
  }

  int fd() {
    return wakeup.fd();
  }

  /** Asks for one more drain at the loop's next I/O phase; on the loop. */
  void request() {
    if (!signalled) {
      signalled = true;
      wakeup.signal();
    }
  }

  /** Whether a drain was asked for and has not run yet. */
  boolean pending() {
    return signalled;
  }

  /** The fd is readable: reset it, then drain. */
  void onReadable() {
    wakeup.reset();
    signalled = false;
    drain.run();
  }

  /** Once the fd is out of the loop's set. */
  void close() {
    try {
      wakeup.close();
    } catch (RuntimeException e) {
      // nothing to do: the number is released either way
    }
  }
}
