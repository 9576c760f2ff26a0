package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.loop.LoopContexts;
import dev.rpma.vertx.impl.seam.LoopIo;
import io.netty.channel.unix.FileDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The completion path: exactly once, on the owning loop, in batches, within the queues. */
@Tag("rdma")
class CompletionPathTest extends DeviceTestBase {

  /**
   * Issues {@code total} writes from the connection's own loop, at most {@code window} in
   * flight, and records per write how often its Future completed and on which thread.
   */
  private static final class WindowedWrites {
    final AtomicIntegerArray completions;
    final AtomicLong offLoop = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final Promise<Void> done = Promise.promise();
    /** The connection's counters as the last write's callback read them. */
    CompletionStats seenByLastCallback;
    private final Loopback pair;
    private final int total;
    private final int window;
    private int issued;
    private int completed;

    WindowedWrites(Loopback pair, int total, int window) {
      this.pair = pair;
      this.total = total;
      this.window = window;
      this.completions = new AtomicIntegerArray(total);
    }

    Future<Void> run() {
      pair.client.context().runOnContext(v -> {
        while (issued < window && issued < total) {
          issueNext();
        }
      });
      return done.future();
    }

    private void issueNext() {
      int index = issued++;
      Thread loop = Thread.currentThread();
      pair.client.write(pair.remote, (index % 64) * 64L, pair.clientRegion, 0, 64)
          .onComplete(ar -> {
            completions.incrementAndGet(index);
            if (Thread.currentThread() != loop
                || !((ContextInternal) pair.client.context()).nettyEventLoop().inEventLoop()) {
              offLoop.incrementAndGet();
            }
            if (ar.failed()) {
              failures.incrementAndGet();
            }
            completed++;
            if (issued < total) {
              issueNext();
            } else if (completed == total) {
              seenByLastCallback = pair.client.stats();
              done.complete();
            }
          });
    }
  }

  @Test
  void tenThousandWritesWithSixtyFourInFlightEachCompleteOnceOnTheLoopInBatches() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      WindowedWrites writes = new WindowedWrites(pair, 10_000, 64);

      await(writes.run());
      CompletionStats stats = RdmaTestSupport.statsOf(pair.client);

      for (int i = 0; i < 10_000; i++) {
        assertEquals(1, writes.completions.get(i), "write " + i + " completed once");
      }
      assertEquals(0, writes.failures.get(), "no write failed");
      assertEquals(0, writes.offLoop.get(), "every Future completed on the connection's loop");
      assertEquals(10_000, stats.completions());
      assertTrue(stats.drainCalls() < stats.completions() / 2,
          "completions are drained in batches: " + stats);
      assertEquals(10_000, writes.seenByLastCallback.completions(),
          "the last write's callback sees its own completion counted: "
              + writes.seenByLastCallback);
      assertEquals(stats.drainCalls(), writes.seenByLastCallback.drainCalls(),
          "and its batch");
    }
  }

  @Test
  void aQueueOfFourTakesAThousandOperationsIssuedAtOnceWithoutOverrun() {
    ConnectionOptions small = new ConnectionOptions().setCqSize(4).setSqSize(4).setRqSize(4);
    try (Loopback pair = Loopback.open(vertx, small)) {
      List<Future<Void>> all = new ArrayList<>();
      Promise<Void> issued = Promise.promise();
      pair.client.context().runOnContext(v -> {
        for (int i = 0; i < 1000; i++) {
          all.add(pair.client.write(pair.remote, (i % 128) * 8L, pair.clientRegion, 0, 8));
        }
        issued.complete();
      });
      await(issued.future());

      await(Future.all(all));

      CompletionStats stats = RdmaTestSupport.statsOf(pair.client);
      assertEquals(1000, all.stream().filter(Future::succeeded).count());
      assertEquals(996, stats.queuedOperations(),
          "all but the first four waited for room in the queues: " + stats);
    }
  }

  @Test
  void aSaturatedConnectionLetsTheOtherIoOfItsLoopInWithinAFewDrainBudgets() throws Exception {
    ConnectionOptions options = new ConnectionOptions(); // drain budget 1024
    try (Loopback pair = Loopback.open(vertx, options)) {
      WriteWindow writes = WriteWindow.start(pair.client, pair.remote, pair.clientRegion, 64, 64);
      await(writes.busy());
      ContextInternal loop = (ContextInternal) pair.client.context();
      FileDescriptor other = io.netty.channel.epoll.Native.newEventFd();
      long[] signalledAt = new long[1];
      Promise<Long> servedAfter = Promise.promise();
      LoopIo.FdWatch watcher = LoopContexts.loopIo(loop).watch(other.intValue(), () -> {
        io.netty.channel.epoll.Native.eventFdRead(other.intValue());
        servedAfter.tryComplete(pair.client.stats().completions() - signalledAt[0]);
      });
      await(watcher.start());

      loop.runOnContext(v -> {
        signalledAt[0] = pair.client.stats().completions();
        io.netty.channel.epoll.Native.eventFdWrite(other.intValue(), 1);
      });
      long completionsMeanwhile = await(servedAfter.future());

      System.out.println("another fd on the loop was served after " + completionsMeanwhile
          + " completions of the saturated connection");
      assertTrue(completionsMeanwhile < 4L * options.getDrainBudget(),
          "served within a few drain budgets, got " + completionsMeanwhile + " completions first");
      await(RdmaTestSupport.onLoop(pair.client, watcher::unwatch));
      other.close();
    }
  }

  @Test
  void operationsCalledFromAnotherThreadCompleteOnTheConnectionsLoop() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      Promise<Boolean> onLoop = Promise.promise();

      pair.client.write(pair.remote, 0, pair.clientRegion, 0, 16).onComplete(ar ->
          onLoop.complete(((ContextInternal) pair.client.context()).nettyEventLoop()
              .inEventLoop() && Vertx.currentContext() == pair.client.context()));

      assertTrue(await(onLoop.future()), "completed on the connection's loop and context");
    }
  }
}
