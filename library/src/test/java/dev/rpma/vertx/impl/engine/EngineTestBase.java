package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.Await;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link ConnectionEngine} on a real Vert.x context, over {@link FakeLibrpma} and
 * {@link FakeLoopIo}: the engine's logic on the host, in milliseconds, no device. Its timers
 * and its drain's clock run in virtual time ({@link VirtualClock}): a test moves time on with
 * {@link #advanceMs}; nothing waits for a real timer.
 */
abstract class EngineTestBase {

  static final int WAKEUP_FD = 1000;
  static final int MAIN_CQ_FD = 100;
  static final int EVENT_FD = 200;
  /** How long a close waits for the peer's CLOSED, in {@link #options()}. */
  static final int CLOSE_TIMEOUT_MS = 100;
  /** How long a connect waits for ESTABLISHED, in {@link #options()}. */
  static final int CONNECT_TIMEOUT_MS = 200;

  /** Blocking calls run at once, on the loop: the order shows in the log. */
  static final SetupCalls SYNC_SETUP = (ctx, call) -> {
    call.run();
    return ctx.succeededFuture();
  };

  Vertx vertx;
  ContextInternal context;
  final List<String> log = new CopyOnWriteArrayList<>();
  FakeLibrpma conn;
  FakeLoopIo io;
  /** The engine's time: stands still until {@link #advanceMs}. */
  VirtualClock clock;
  ConnectionEngine engine;
  /** What the engine reports to the metrics; a test may set a recorder before open(). */
  OperationMetrics metrics = OperationMetrics.NONE;
  FakeRegion local;
  FakeRegion remote;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    context = (ContextInternal) vertx.getOrCreateContext();
    conn = new FakeLibrpma(log);
    io = new FakeLoopIo(context, log);
    clock = io.clock;
    local = new FakeRegion("local", 11, log);
    remote = new FakeRegion("remote", 22, log);
  }

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  /** Small queues, so that limits are reached in a few operations. */
  static ConnectionOptions options() {
    return new ConnectionOptions().setCqSize(4).setSqSize(4).setRqSize(4).setDrainBatch(2)
        .setDrainBudget(4).setTimeoutMs(CLOSE_TIMEOUT_MS).setConnectTimeoutMs(CONNECT_TIMEOUT_MS)
        .setCompletionTimeoutMs(0).setKeepAliveMs(0);
  }

  /** A started, established engine. */
  void open(ConnectionOptions options) {
    onLoop(() -> {
      engine = new ConnectionEngine(context, options, "test connection", io,
          SYNC_SETUP, metrics);
      return null;
    });
    Future<Void> started = onLoop(() -> engine.start(conn));
    conn.events.add(CmEvent.ESTABLISHED);
    onLoop(() -> io.fire(EVENT_FD));
    await(started);
  }

  void open() {
    open(options());
  }

  /** The reasons the close handler is called with, from now on. */
  List<Throwable> watchClose() {
    List<Throwable> closedWith = new CopyOnWriteArrayList<>();
    onLoop(() -> {
      engine.closeHandler(closedWith::add);
      return null;
    });
    return closedWith;
  }

  /** Moves the engine's time on by {@code ms}, on its loop: what falls due fires, in order. */
  void advanceMs(long ms) {
    onLoop(() -> {
      clock.advanceMs(ms);
      return null;
    });
  }

  /**
   * The user's close of an open connection whose peer never answers: it ends at the close
   * timeout, which this lets pass. The close's Future.
   */
  Future<Void> closeUnanswered() {
    Future<Void> closed = onLoop(() -> engine.close());
    advanceMs(CLOSE_TIMEOUT_MS);
    return closed;
  }

  /** Runs on the engine's context and returns what it returned. */
  <T> T onLoop(Supplier<T> action) {
    CompletableFuture<T> result = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        result.complete(action.get());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    try {
      return result.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A write of 8 bytes from the local to the remote region, submitted on the loop. */
  Future<Void> write() {
    return onLoop(() -> {
      PromiseInternal<Void> p = context.promise();
      engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, p);
      return p.future();
    });
  }

  Future<dev.rpma.vertx.Received> recv() {
    return onLoop(() -> {
      PromiseInternal<dev.rpma.vertx.Received> p = context.promise();
      engine.submit(OpKind.RECV, local.held(), 0, null, 0, 64, 0, p);
      return p.future();
    });
  }

  /** The main CQ's fd is readable. */
  void cqReady() {
    onLoop(() -> io.fire(MAIN_CQ_FD));
  }

  /** Host tests fail fast: the fakes answer in milliseconds. */
  static final Duration DEADLINE = Duration.ofSeconds(10);

  static <T> T await(Future<T> f) {
    return Await.await(f, DEADLINE);
  }

  static Throwable failure(Future<?> f) {
    return Await.awaitFailure(f, DEADLINE);
  }

  /** Lets the loop run what it queued (timers aside). */
  void settle() {
    onLoop(() -> null);
    onLoop(() -> null);
  }
}
