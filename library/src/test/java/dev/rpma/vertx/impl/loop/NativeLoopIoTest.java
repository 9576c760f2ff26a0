package dev.rpma.vertx.impl.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.Await;
import dev.rpma.vertx.impl.jni.JniEventFd;
import dev.rpma.vertx.impl.loop.LoopUnderTest.Mode;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real watchers on real Netty loops, over eventfds (no device): readiness reaches the owning
 * context, level triggered, none lost, one wake-up per fd per I/O phase, removal resolved only
 * once the loop let go of the fd, on epoll and on io_uring alike. Skipped where the kernel (or a
 * sandbox) refuses a transport.
 */
class NativeLoopIoTest {

  private static final Duration DEADLINE = LoopUnderTest.DEADLINE;

  private LoopUnderTest loop;
  private Vertx vertx;
  private ContextInternal context;
  private LoopIo io;
  private JniEventFd eventFd;

  private void open(Mode mode) {
    loop = LoopUnderTest.open(mode);
    vertx = loop.vertx;
    context = loop.context;
    io = loop.io;
    eventFd = loop.eventFd;
    Class<? extends LoopIo> expected = mode == Mode.EPOLL ? EpollLoopIo.class : IoUringLoopIo.class;
    assertEquals(expected, io.getClass(), "the LoopIo picked for the context's loop");
  }

  @AfterEach
  void tearDown() {
    if (vertx != null) {
      await(vertx.close());
      eventFd.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void eachSignalRunsTheHandlerOnceOnTheOwningContext(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger elsewhere = new AtomicInteger();
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), () -> {
      if (Vertx.currentContext() != context) {
        elsewhere.incrementAndGet();
      }
      eventFd.reset();
      calls.incrementAndGet();
    }));
    await(onLoop(watch::start));
    for (int i = 1; i <= 3; i++) {
      eventFd.signal();
      waitFor(calls, i);
    }
    twoIoPhasesPass();
    assertEquals(3, calls.get(), "a consumed fd is not reported again");
    assertEquals(0, elsewhere.get(), "every call ran on the owning context");
    await(onLoop(watch::unwatch));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void readinessArrivingWhileTheHandlerRunsIsNotLost(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), () -> {
      eventFd.reset();
      if (calls.incrementAndGet() == 1) {
        eventFd.signal(); // as a completion event arriving just after the handler's read
      }
    }));
    await(onLoop(watch::start));
    eventFd.signal();
    waitFor(calls, 2);
    await(onLoop(watch::unwatch));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aHandlerThatLeavesTheFdReadableIsCalledAgain(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), () -> {
      if (calls.incrementAndGet() == 3) {
        eventFd.reset(); // level triggering: called until it reads
      }
    }));
    await(onLoop(watch::start));
    eventFd.signal();
    waitFor(calls, 3);
    await(onLoop(watch::unwatch));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aFdStillReadableWaitsForTheLoopsTasksBeforeItsNextCall(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger callsWhenTheTaskRan = new AtomicInteger();
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), () -> {
      int n = calls.incrementAndGet();
      if (n == 1) {
        context.nettyEventLoop().execute(() -> callsWhenTheTaskRan.set(calls.get()));
      } else if (n == 3) {
        eventFd.reset();
      }
    }));
    await(onLoop(watch::start));
    eventFd.signal();
    waitFor(calls, 3);
    // one call per I/O phase, as epoll's one epoll_wait per phase: io_uring's handler reaps up
    // to 128 rounds per phase, and a poll armed again within it would starve the tasks
    assertEquals(1, callsWhenTheTaskRan.get(), "the fd was served again before the loop's tasks");
    await(onLoop(watch::unwatch));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void unwatchResolvesOnceTheLoopLetGoAndNothingIsDeliveredAfterIt(Mode mode) {
    open(mode);
    AtomicInteger calls = new AtomicInteger();
    LoopIo.FdWatch watch = loop.startedCountingWatch(calls);
    Promise<Boolean> doneAtOnce = Promise.promise();
    Future<Void> unwatched = onLoop(() -> {
      Future<Void> f = watch.unwatch();
      doneAtOnce.complete(f.isComplete());
      return f;
    });
    if (mode != Mode.EPOLL) {
      assertFalse(await(doneAtOnce.future()),
          "on io_uring removal waits for the poll's last completion");
    }
    await(unwatched);
    eventFd.signal();
    twoIoPhasesPass(); // in which the fd, readable before they began, would have been served
    assertEquals(0, calls.get());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void unwatchResolvesWhenAWakeUpIsStillBeingProcessed(Mode mode) {
    open(mode);
    for (int i = 0; i < 20; i++) {
      LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), eventFd::reset));
      await(onLoop(watch::start));
      // the wake-up's task work is still pending in the ring when the removal comes (the
      // kernel answers a POLL_REMOVE then with EALREADY and leaves the poll armed: seen with
      // multishot polls on the device, a connection whose close never ended)
      await(onLoop(() -> {
        eventFd.signal();
        return watch.unwatch();
      }));
      eventFd.reset();
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aHandlerMayUnwatchItsOwnFd(Mode mode) {
    open(mode);
    Promise<Future<Void>> unwatched = Promise.promise();
    LoopIo.FdWatch[] watch = new LoopIo.FdWatch[1];
    watch[0] = onLoop(() -> io.watch(eventFd.fd(), () -> {
      eventFd.reset();
      unwatched.tryComplete(watch[0].unwatch());
    }));
    await(onLoop(watch[0]::start));
    eventFd.signal();
    await(await(unwatched.future()));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anUnwatchRightAfterTheStartResolvesAndSettlesTheStart(Mode mode) {
    open(mode);
    Promise<Future<Void>> started = Promise.promise();
    Future<Void> unwatched = onLoop(() -> {
      LoopIo.FdWatch watch = io.watch(eventFd.fd(), () -> { });
      started.complete(watch.start());
      return watch.unwatch();
    });
    await(unwatched);
    Future<Void> start = await(started.future());
    // registered and removed, or refused as closed meanwhile
    Await.waitUntil("the watch's start completed", DEADLINE, start::isComplete);
  }

  @Test
  void aNioLoopIsRefusedWithBothTransportsThatWorkAndHowToEnableThem() {
    vertx = Vertx.vertx(); // NIO
    eventFd = JniEventFd.open();
    ContextInternal nio = (ContextInternal) vertx.getOrCreateContext();
    String message = assertThrows(IllegalStateException.class,
        () -> LoopContexts.loopIo(nio)).getMessage();
    for (String named : new String[] {"epoll", "io_uring", "setPreferNativeTransport(true)",
        "netty-transport-native-epoll", "withTransport(Transport.IO_URING)",
        "netty-transport-native-io_uring"}) {
      assertTrue(message.contains(named), "names " + named + ": " + message);
    }
    String refusal = assertThrows(IllegalStateException.class,
        () -> LoopContexts.requireNativeTransport(vertx)).getMessage();
    assertTrue(refusal.contains("this Vert.x uses NIO") && refusal.contains("io_uring"), refusal);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Positive evidence, instead of a sleep, that whatever was readable on the loop when this
   * was called has had its turn: a marker eventfd watched on the same loop, signalled after it
   * and served, twice (two I/O phases: a fd readable before the first signal is served in the
   * first at the latest, on epoll as on io_uring, where its poll completed before the marker's).
   */
  private void twoIoPhasesPass() {
    AtomicInteger served = new AtomicInteger();
    try (JniEventFd marker = JniEventFd.open()) {
      LoopIo.FdWatch watch = onLoop(() -> io.watch(marker.fd(), () -> {
        marker.reset();
        served.incrementAndGet();
      }));
      await(onLoop(watch::start));
      for (int phase = 1; phase <= 2; phase++) {
        marker.signal();
        waitFor(served, phase);
      }
      await(onLoop(watch::unwatch));
    }
  }

  private <T> T onLoop(Supplier<T> get) {
    Promise<T> value = Promise.promise();
    context.runOnContext(v -> value.complete(get.get()));
    return await(value.future());
  }

  private static <T> T await(Future<T> future) {
    return Await.await(future, DEADLINE);
  }

  private static void waitFor(AtomicInteger counter, int atLeast) {
    Await.waitUntil("the fd's handler ran " + atLeast + " times", DEADLINE,
        () -> counter.get() >= atLeast);
  }
}
