package dev.rpma.vertx.impl.loop;

import dev.rpma.vertx.impl.jni.Native;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoOps;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;

/**
 * A librpma fd watched by the io_uring ring of the Vert.x event loop that owns it: a one-shot
 * {@code IORING_OP_POLL_ADD} for POLLIN through Netty's {@link IoUringIoHandle}, armed again
 * after each wake-up.
 *
 * <p><b>Readiness: epoll's, by construction.</b> The poll is armed again from the loop's task
 * phase, after the handler ran; a fd still readable then completes at once, so a handler that
 * leaves readiness behind is called again (level triggering), and nothing that arrives meanwhile
 * is lost (a poll checks the fd when it is armed). Armed from the task phase, not at once: Netty's
 * io_uring handler reaps completions for up to 128 rounds per I/O phase, and a poll armed again
 * within the phase (or a multishot poll, which never disarms) would bring a busy fd back round
 * after round, holding every task of the loop for up to 128 drains (seen: 40 s instead of 1 s
 * for a test that hops onto a saturated connection's loop). One wake-up per fd per I/O phase is
 * what epoll's one epoll_wait per phase gives, and what the drain budget is sized for.
 *
 * <p><b>Removal.</b> {@link #unwatch()} submits {@code IORING_OP_ASYNC_CANCEL} for an armed poll
 * and cancels the Netty registration once the poll's completion arrived (at once if none is
 * armed); Netty counts every submission's completion and calls {@code unregistered()} after the
 * last one (the poll's and the cancel's own): only then does the ring hold no reference to the
 * fd and may librpma close it. Not {@code POLL_REMOVE}: while a wake-up of the poll is being
 * processed the kernel answers that with {@code -EALREADY} and leaves the poll armed (seen with
 * multishot polls: closes that never ended); a cancel marks the poll and ends it. Nothing is
 * delivered once removal began: late completions are dropped.
 */
public final class IoUringFdWatcher extends LoopFdWatch implements IoUringIoHandle {

  private static final Logger LOG = LoggerFactory.getLogger(IoUringFdWatcher.class);

  // the kernel's ABI (include/uapi/linux/io_uring.h, poll.h, errno.h); Netty's copies are private
  private static final byte IORING_OP_POLL_ADD = 6;
  private static final byte IORING_OP_ASYNC_CANCEL = 14;
  private static final int POLLIN = 0x0001;
  private static final int ENOENT = 2;

  /** The armed poll's user_data (what a cancel names), 0 when none is armed. */
  private long pollId;
  /** Arms the poll again from the task phase; one instance, no allocation per wake-up. */
  private final Runnable armAgain = this::armAgain;

  private IoUringFdWatcher(ContextInternal context, int fd, Runnable onReadable) {
    super(context, fd, onReadable);
  }

  /** A watcher of {@code fd} on the context's io_uring loop; nothing happens until start(). */
  public static IoUringFdWatcher create(ContextInternal context, int fd, Runnable onReadable) {
    return new IoUringFdWatcher(context, fd, onReadable);
  }

  @Override
  void arm() {
    if (!submitPoll()) {
      throw new IllegalStateException("io_uring did not take the poll of fd " + fd
          + ": its registration was cancelled (is the event loop shutting down?)");
    }
  }

  /** io_uring_prep_poll_add: fd, poll32_events = POLLIN. False if Netty refused it. */
  private boolean submitPoll() {
    pollId = registration.submit(new IoUringIoOps(IORING_OP_POLL_ADD, (byte) 0, (short) 0, fd,
        0L, 0L, 0, POLLIN, 0L, (short) 0, (short) 0, 0, 0L));
    return pollId != 0;
  }

  private void armAgain() {
    // no throw here (a task of the loop): a cancelled registration means the loop is closing
    if (!closing && pollId == 0 && !submitPoll()) {
      LOG.warn("io_uring did not take the poll of fd " + fd + " again; no longer watched");
    }
  }

  @Override
  void disarm() {
    if (pollId != 0) {
      cancelPoll(); // the registration is cancelled at the poll's completion (handle)
    } else {
      registration.cancel(); // nothing armed; Netty waits for a completion being handled
    }
  }

  /** io_uring_prep_cancel64: addr = the poll's user_data (as Netty's channels cancel polls). */
  private void cancelPoll() {
    registration.submit(new IoUringIoOps(IORING_OP_ASYNC_CANCEL, (byte) 0, (short) 0, -1, 0L,
        pollId, 0, 0, 0L, (short) 0, (short) 0, 0, 0L));
  }

  @Override
  public void handle(IoRegistration inner, IoEvent ioEvent) { // inner: Netty's, unwrapped
    IoUringIoEvent event = (IoUringIoEvent) ioEvent;
    int res = event.res();
    if (event.opcode() != IORING_OP_POLL_ADD) {
      // the cancel's own completion: 0 (the poll ends with -ECANCELED) or -ENOENT (it had
      // completed already); anything else leaves it armed, so ask again
      if (pollId != 0 && res != 0 && res != -ENOENT) {
        cancelPoll();
      }
      return;
    }
    pollId = 0; // a one-shot poll completes once
    if (closing) {
      // our field, the loop's wrapper of the registration, as for every call: Netty
      // unregisters once this completion and the cancel's are in
      registration.cancel();
      return;
    }
    if (res < 0) {
      // the poll itself failed (a bad fd, no memory): the handler runs once so that its own
      // read meets the error and closes its owner with it; arming again would fail again
      LOG.warn("io_uring poll of fd " + fd + " failed: " + Native.errnoString(-res)
          + "; the fd is no longer watched (a bug: please report it with this line)");
      readable();
      return;
    }
    readable(); // res: the poll mask, POLLIN and maybe POLLERR/POLLHUP
    if (delivers()) { // not on a loop shutting down: it may no longer take the task
      context.nettyEventLoop().execute(armAgain);
    }
  }

  /** The loop is shutting down: the poll is cancelled on the ring's way out; nothing delivered. */
  @Override
  public void close() {
    if (!closing && registration != null && registration.isValid()) {
      closing = true;
      disarm();
    }
    super.close();
  }
}
