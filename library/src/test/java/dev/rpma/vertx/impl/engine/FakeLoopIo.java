package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.EngineClock;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The loop's fd set in memory: a test makes an fd "readable" with {@link #fire}; a wake-up fd's
 * signal fires it at the loop's next turn, as an eventfd would. Its clock is a
 * {@link VirtualClock}: time moves only when the test advances it. Logs to the shared list.
 */
final class FakeLoopIo implements LoopIo {

  private final ContextInternal context;
  private final List<String> log;
  private final Map<Integer, Runnable> watched = new HashMap<>();
  final VirtualClock clock = new VirtualClock();
  private int nextWakeupFd = 1000;
  /** Thrown by the next {@link #newWakeupFd()}, e.g. the process at its fd limit. */
  RuntimeException failWakeup;

  FakeLoopIo(ContextInternal context, List<String> log) {
    this.context = context;
    this.log = log;
  }

  /** The fd is readable: runs its handler if it is watched. False if it is not. */
  boolean fire(int fd) {
    Runnable handler = watched.get(fd);
    if (handler == null) {
      return false;
    }
    handler.run();
    return true;
  }

  boolean isWatched(int fd) {
    return watched.containsKey(fd);
  }

  @Override
  public FdWatch watch(int fd, Runnable onReadable) {
    return new FdWatch() {
      @Override
      public Future<Void> start() {
        log.add("watch " + fd);
        watched.put(fd, onReadable);
        return context.succeededFuture();
      }

      @Override
      public Future<Void> unwatch() {
        log.add("unwatch " + fd);
        watched.remove(fd);
        return context.succeededFuture();
      }
    };
  }

  @Override
  public EngineClock clock() {
    return clock;
  }

  @Override
  public WakeupFd newWakeupFd() {
    if (failWakeup != null) {
      throw failWakeup;
    }
    int fd = nextWakeupFd++;
    return new WakeupFd() {
      boolean readable;

      @Override
      public int fd() {
        return fd;
      }

      @Override
      public void signal() {
        readable = true;
        log.add("signal " + fd);
        context.runOnContext(v -> {
          if (readable) {
            fire(fd);
          }
        });
      }

      @Override
      public void reset() {
        readable = false;
      }

      @Override
      public void close() {
        log.add("close " + fd);
      }
    };
  }
}
