package dev.rpma.vertx.impl;

import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;

/**
 * Continues a drain that used up its budget from the loop's I/O phase, not from a task: an
 * eventfd watched on the same loop, signalled when the budget runs out.
 *
 * <p>Leftover completions raise no new CQ event, so the rest must be drained on our own
 * initiative; but as a task it would starve the loop's other I/O: Netty 4.2 runs tasks until
 * its quantum (up to 1 s) before it polls I/O again, and a busy connection always has one more.
 * A readable eventfd instead takes its turn among the loop's other ready fds.
 */
final class DrainContinuation {

  private final FileDescriptor eventFd = io.netty.channel.epoll.Native.newEventFd();
  private final Runnable drain;
  private boolean signalled;

  DrainContinuation(Runnable drain) {
    this.drain = drain;
  }

  int fd() {
    return eventFd.intValue();
  }

  /** Asks for one more drain at the loop's next I/O phase; on the loop. */
  void request() {
    if (!signalled) {
      signalled = true;
      io.netty.channel.epoll.Native.eventFdWrite(eventFd.intValue(), 1);
    }
  }

  /** The eventfd is readable: reset it, then drain. */
  void onReadable() {
    io.netty.channel.epoll.Native.eventFdRead(eventFd.intValue());
    signalled = false;
    drain.run();
  }

  /** Once the fd is out of the epoll set. */
  void close() {
    try {
      eventFd.close();
    } catch (IOException e) {
      // nothing to do: the number is released either way
    }
  }
}
