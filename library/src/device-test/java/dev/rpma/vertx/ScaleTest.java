package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many connections from one peer to one server on one Vert.x: {@value #DEFAULT_CONNECTIONS} by
 * default (RPMA_SCALE_CONNECTIONS for more: one JVM holding both ends reaches its open-file
 * limit of 4096 at about 675 connections in the test guest, see README "How many
 * connections"). Every connection writes a window of {@value ManyConnections#WINDOW} slots,
 * reads them back and compares byte for byte, round after round.
 */
@Tag("rdma")
class ScaleTest extends DeviceTestBase {

  static final int DEFAULT_CONNECTIONS = 256;
  private static final int ROUNDS = 3;
  /** Both ends are in this JVM: three fds each (CM event channel, completion channel, eventfd). */
  private static final int FDS_PER_CONNECTION_PAIR = 6;

  private static int connections() {
    return Integer.parseInt(System.getenv().getOrDefault("RPMA_SCALE_CONNECTIONS",
        String.valueOf(DEFAULT_CONNECTIONS)));
  }

  @Test
  void manyConnectionsOnOneEventLoopEachWriteAWindowThatReadsBackByteForByte() {
    int n = connections();
    Context loop = newContext(List.of());
    long fdsBefore = ProcessResources.rdmaFds();
    try (ManyConnections many = ManyConnections.open(vertx, n, List.of(loop))) {
      assertEquals(n, many.clients.size());
      for (RpmaConnection c : many.clients) {
        assertSame(loop, c.context(), "every connection on the one loop's context");
      }
      assertEquals(FDS_PER_CONNECTION_PAIR * n + 1, ProcessResources.rdmaFds() - fdsBefore,
          "fds of " + n + " connections, both ends, and the listener's event channel");

      runRounds(many, n);
    }
    assertEquals(fdsBefore, ProcessResources.rdmaFds(), "every connection's fds closed");
  }

  @Test
  void manyConnectionsOverTwoEventLoopsEachWriteAWindowThatReadsBackByteForByte() {
    int n = connections();
    Context first = newContext(List.of());
    Context second = newContext(List.of(first));
    try (ManyConnections many = ManyConnections.open(vertx, n, List.of(first, second))) {
      for (int i = 0; i < n; i++) {
        assertSame(i % 2 == 0 ? first : second, many.clients.get(i).context());
      }

      runRounds(many, n);
    }
  }

  @Test
  void oneConnectionClosingLeavesTheOthersWorking() {
    int n = 32;
    int leaving = 5;
    try (ManyConnections many = ManyConnections.open(vertx, n, List.of(newContext(List.of())))) {
      await(many.roundOnAll(1));
      RpmaConnection gone = many.clients.get(leaving);
      Promise<Throwable> serverSideClosed = Promise.promise();
      AtomicInteger serverSidesClosed = new AtomicInteger();
      for (RpmaConnection s : many.accepted) {
        await(onLoop(s, () -> s.closeHandler(why -> {
          serverSidesClosed.incrementAndGet();
          serverSideClosed.tryComplete(why);
        })));
      }

      // its own window is in flight when it closes, and the others' rounds too
      Future<Void> itsRound = many.roundOn(leaving, 2);
      Future<Void> closed = gone.close();
      Future<Void> others = many.roundOnAll(2, leaving);

      await(closed);
      Throwable itsOutcome = itsRound.transform(ar -> Future.succeededFuture(ar.cause()))
          .toCompletionStage().toCompletableFuture().join();
      if (itsOutcome != null) {
        assertInstanceOf(RpmaConnectionClosedException.class, rootOrSelf(itsOutcome));
      }
      await(others);
      await(serverSideClosed.future());
      assertInstanceOf(RpmaConnectionClosedException.class,
          awaitFailure(gone.write(remoteOf(many, leaving), 0, many.clientRegion, 0, 8)));
      await(many.roundOnAll(3, leaving));
      many.checkServerMemory(3, leaving);
      assertEquals(1, serverSidesClosed.get(), "only the leaving connection's server side closed");
      assertEquals(0, many.mismatches.get());
      assertEquals((long) (n - 1) * ManyConnections.WINDOW * 3 + n * ManyConnections.WINDOW
          + (itsOutcome == null ? ManyConnections.WINDOW : 0), many.verified.get());
    }
  }

  private static void runRounds(ManyConnections many, int n) {
    long start = System.nanoTime();
    for (int round = 1; round <= ROUNDS; round++) {
      await(many.roundOnAll(round));
    }
    many.checkServerMemory(ROUNDS);
    System.out.printf("scale: %d connections, %d rounds of %d writes and %d reads each,"
        + " verified in %.1f s%n", n, ROUNDS, ManyConnections.WINDOW, ManyConnections.WINDOW,
        (System.nanoTime() - start) / 1e9);
    assertEquals(0, many.mismatches.get(), "bytes read back that differ from those written");
    assertEquals((long) n * ManyConnections.WINDOW * (ROUNDS + 1), many.verified.get(),
        "every slot of every round read back and checked, and the server's memory");
  }

  /** An event-loop context on a loop none of {@code others} runs on. */
  private Context newContext(List<Context> others) {
    VertxInternal vx = (VertxInternal) vertx;
    List<EventLoop> taken = new ArrayList<>();
    for (Context c : others) {
      taken.add(((ContextInternal) c).nettyEventLoop());
    }
    for (int attempt = 0; attempt < 64; attempt++) {
      ContextInternal ctx = vx.createEventLoopContext();
      if (!taken.contains(ctx.nettyEventLoop())) {
        for (EventLoop t : taken) {
          assertNotSame(t, ctx.nettyEventLoop());
        }
        return ctx;
      }
    }
    throw new AssertionError("no second event loop: Vert.x has one");
  }

  private static RemoteMemoryRegion remoteOf(ManyConnections many, int i) {
    return RemoteMemoryRegion.fromDescriptor(
        RegionOffer.fromBytes(many.clients.get(i).remotePrivateData()).regionDescriptor());
  }

  private static Future<Void> onLoop(RpmaConnection c, Runnable r) {
    Promise<Void> p = Promise.promise();
    c.context().runOnContext(v -> {
      r.run();
      p.complete();
    });
    return p.future();
  }

  private static Throwable rootOrSelf(Throwable t) {
    return t instanceof RpmaConnectionClosedException || t.getCause() == null ? t : t.getCause();
  }
}
