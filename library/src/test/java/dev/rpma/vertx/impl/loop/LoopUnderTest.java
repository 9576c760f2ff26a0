package dev.rpma.vertx.impl.loop;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rpma.vertx.Await;
import dev.rpma.vertx.impl.jni.JniEventFd;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.uring.IoUringIoHandler;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.transport.Transport;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A real Netty loop of one native transport, a context on it, its {@link LoopIo} and an
 * eventfd to watch: what the watchers' host tests share. Opening it skips the test where the
 * kernel (or a sandbox) refuses the transport.
 */
final class LoopUnderTest {

  /** The native transports the library watches fds on. */
  enum Mode {
    EPOLL, IO_URING;

    Transport transport() {
      return this == EPOLL ? Transport.EPOLL : Transport.IO_URING;
    }
  }

  /** A real loop on the host answers in milliseconds. */
  static final Duration DEADLINE = Duration.ofSeconds(10);

  final Vertx vertx;
  /** The loop the context runs on: none of Vert.x's own when a test shuts it down by itself. */
  private final EventLoopGroup ownLoop;
  final ContextInternal context;
  final LoopIo io;
  final JniEventFd eventFd;

  private LoopUnderTest(Vertx vertx, EventLoopGroup ownLoop) {
    this.vertx = vertx;
    this.ownLoop = ownLoop;
    this.context = ownLoop == null ? (ContextInternal) vertx.getOrCreateContext()
        : ((VertxInternal) vertx).contextBuilder()
            .withThreadingModel(ThreadingModel.EVENT_LOOP)
            .withEventLoop(ownLoop.next())
            .build();
    this.io = LoopContexts.loopIo(context);
    this.eventFd = JniEventFd.open();
  }

  static LoopUnderTest open(Mode mode) {
    return new LoopUnderTest(vertxOn(mode), null);
  }

  /**
   * A context on a loop of its own, outside Vert.x's group, of the same transport: a test may
   * shut that loop down alone (Vert.x's close needs every loop of its own group).
   */
  static LoopUnderTest openOnItsOwnLoop(Mode mode) {
    Vertx vertx = vertxOn(mode);
    IoHandlerFactory handlers = mode == Mode.EPOLL ? EpollIoHandler.newFactory()
        : IoUringIoHandler.newFactory();
    return new LoopUnderTest(vertx, new MultiThreadIoEventLoopGroup(1, handlers));
  }

  private static Vertx vertxOn(Mode mode) {
    Transport transport = mode.transport();
    assumeTrue(transport != null && transport.available(),
        () -> mode + " unavailable here: " + (transport == null ? "no classes"
            : transport.unavailabilityCause()));
    return Vertx.builder().withTransport(transport).build();
  }

  /** Computes a value on the loop and waits for it. */
  <T> T onLoop(Supplier<T> get) {
    Promise<T> value = Promise.promise();
    context.runOnContext(v -> value.complete(get.get()));
    return await(value.future());
  }

  /** A watch of the eventfd, started, whose handler reads it and counts its calls. */
  LoopIo.FdWatch startedCountingWatch(AtomicInteger calls) {
    LoopIo.FdWatch watch = onLoop(() -> io.watch(eventFd.fd(), () -> {
      eventFd.reset();
      calls.incrementAndGet();
    }));
    await(onLoop(watch::start));
    return watch;
  }

  static <T> T await(Future<T> future) {
    return Await.await(future, DEADLINE);
  }

  /** Closes Vert.x (if the test did not) and the eventfd. */
  void close() {
    await(vertx.close());
    if (ownLoop != null) {
      ownLoop.shutdownGracefully(0, 10, TimeUnit.SECONDS).syncUninterruptibly();
    }
    eventFd.close();
  }
}
