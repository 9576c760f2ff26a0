package dev.rpma.vertx.impl.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.Await;
import dev.rpma.vertx.impl.jni.JniEventFd;
import dev.rpma.vertx.impl.seam.LoopIo;
import dev.rpma.vertx.impl.loop.LoopUnderTest.Mode;
import io.netty.channel.EventLoop;
import io.vertx.core.Future;
import io.vertx.core.transport.Transport;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The watchers' edges on real Netty loops, over eventfds (no device): a fd the loop cannot
 * take, an unwatch from off the loop or a second time, a loop that shuts down with a fd still
 * watched; and which native transports the doctor reports. Beside NativeLoopIoTest, which
 * covers the watchers' ordinary life.
 */
class LoopFdWatchEdgesTest {

  private LoopUnderTest loop;
  private LoopIo io;
  private JniEventFd eventFd;

  private void open(Mode mode) {
    loop = LoopUnderTest.open(mode);
    io = loop.io;
    eventFd = loop.eventFd;
  }

  @AfterEach
  void tearDown() {
    if (loop != null) {
      loop.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aFdThatCannotBeMadeNonBlockingFailsItsStartNamingTheFdAndItsUnwatchResolves(Mode mode) {
    open(mode);
    // past any fd the kernel hands out (its ceiling, fs.nr_open, is at most 2^30): EBADF
    int notAFd = Integer.MAX_VALUE;
    LoopIo.FdWatch watch = onLoop(() -> io.watch(notAFd, () -> { }));

    Throwable refused = failureOf(onLoop(watch::start));

    assertTrue(refused instanceof IllegalStateException && refused.getMessage()
        .contains("cannot make fd " + notAFd + " non-blocking"), String.valueOf(refused));
    await(onLoop(watch::unwatch)); // never registered: nothing for the loop to let go of
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anUnwatchFromOffTheLoopHopsToItAndLetsGoOfTheFd(Mode mode) {
    open(mode);
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), eventFd::reset));
    await(onLoop(watch::start));

    await(watch.unwatch()); // this test's thread, not the loop's

    // let go of: the same fd is watched afresh (epoll refuses a fd already in its set) and
    // served by its new handler
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch again = loop.startedCountingWatch(calls);
    eventFd.signal();
    Await.waitUntil("the fd's new handler ran", LoopUnderTest.DEADLINE, () -> calls.get() > 0);
    await(onLoop(again::unwatch));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSecondUnwatchResolvesAsTheFirstWithoutDisarmingAgain(Mode mode) {
    open(mode);
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), eventFd::reset));
    await(onLoop(watch::start));

    Future<Void> first = onLoop(watch::unwatch);
    Future<Void> second = onLoop(watch::unwatch);

    await(first);
    await(second);
    assertSame(first, second, "both wait for the one removal");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aLoopShutDownWithAFdStillWatchedDropsItAndDeliversNothingMore(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = loop.startedCountingWatch(calls);

    // the loop drops its registrations itself (an armed io_uring poll is cancelled first)
    await(loop.vertx.close());

    LoopFdWatch dropped = (LoopFdWatch) watch;
    assertFalse(dropped.delivers(), "the watcher still delivers after its loop shut down");
    dropped.readable(); // readiness reported late, as a poll completing in the teardown would
    assertEquals(0, calls.get(), "the handler ran after its loop dropped the fd");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aLoopThatShutsDownWhileBusyDeliversNothingMoreThoughNettyNeverClosedTheWatch(Mode mode)
      throws InterruptedException {
    loop = LoopUnderTest.openOnItsOwnLoop(mode);
    eventFd = loop.eventFd;
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = loop.startedCountingWatch(calls);
    EventLoop nettyLoop = loop.context.nettyEventLoop();
    CountDownLatch busy = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    nettyLoop.execute(() -> {
      busy.countDown();
      awaitQuietly(release);
    });
    assertTrue(busy.await(10, TimeUnit.SECONDS), "the loop never ran the task");

    // the shutdown begins after the loop's I/O phase looked for it: Netty's
    // SingleThreadIoEventLoop.run() then confirms it without prepareToDestroy(), so no handle
    // is closed (what a Vert.x close meets when a loop is busy at that moment; seen in CI)
    io.netty.util.concurrent.Future<?> terminated = nettyLoop.shutdownGracefully(0, 10,
        TimeUnit.SECONDS);
    release.countDown();
    assertTrue(terminated.await(10, TimeUnit.SECONDS), "the loop did not terminate");

    LoopFdWatch dropped = (LoopFdWatch) watch;
    assertFalse(dropped.closing, "Netty closed the watch: this test no longer meets the race");
    assertFalse(dropped.delivers(), "the watcher still delivers after its loop terminated");
    eventFd.signal();
    dropped.readable(); // as io_uring's destroy() reaping a poll after the loop's last task
    assertEquals(0, calls.get(), "the handler ran after its loop terminated");
    await(watch.unwatch());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anUnwatchAfterTheLoopClosedResolvesInsteadOfThrowing(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = loop.startedCountingWatch(calls);
    await(loop.vertx.close());

    // off the loop, which no longer takes tasks: its own teardown already let go of the fd
    Future<Void> unwatched = watch.unwatch();

    await(unwatched);
    assertEquals(0, calls.get(), "the handler ran after its loop dropped the fd");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anUnwatchAfterTheLoopClosedOfAWatchNeverStartedResolves(Mode mode) {
    open(mode);
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), eventFd::reset));
    await(loop.vertx.close());

    await(watch.unwatch()); // never registered: nothing for the loop to let go of
  }

  @Test
  void theDoctorHearsTheTransportsThatLoadHereAsAvailableAndTheOthersWithAReason() {
    for (Mode mode : Mode.values()) {
      Transport transport = mode.transport();
      String unavailable = mode == Mode.EPOLL ? NativeTransports.epollUnavailable()
          : NativeTransports.ioUringUnavailable();
      if (transport != null && transport.available()) {
        assertNull(unavailable, mode + " loads here, yet the doctor hears: " + unavailable);
      } else {
        assertNotNull(unavailable, mode + " does not load here, and the doctor hears no reason");
        assertFalse(unavailable.isBlank(), mode + ": an empty reason");
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  private <T> T onLoop(Supplier<T> get) {
    return loop.onLoop(get);
  }

  private static <T> T await(Future<T> future) {
    return LoopUnderTest.await(future);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Throwable failureOf(Future<?> future) {
    Await.waitUntil("the future completed", LoopUnderTest.DEADLINE, future::isComplete);
    assertTrue(future.failed(), "succeeded, expected to fail");
    return future.cause();
  }
}
