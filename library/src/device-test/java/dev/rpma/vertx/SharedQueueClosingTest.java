package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.SharedQueueFixture.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connections leaving a shared receive queue with messages in flight, on the device: clients
 * that close as soon as their sends complete, and server-side connections closed from the
 * callback of one of their own messages. Every send that completed is delivered exactly once,
 * attributed to its client, and each client's messages in the order it sent them.
 */
@Tag("rdma")
class SharedQueueClosingTest {

  static final int CLIENTS = 8;
  static final int MESSAGES = 40;

  private SharedQueueFixture f;
  /** Client -> the message numbers delivered from it, in delivery order. */
  private final Map<Integer, List<Integer>> delivered = new ConcurrentHashMap<>();
  private final List<Throwable> receiveFailures = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  /**
   * A queue with a receive posted for every message there will be, and a drain budget of 8:
   * many short drains, so that connections leave while the CQ still holds their messages.
   */
  private void start() {
    int all = CLIENTS * MESSAGES;
    f = new SharedQueueFixture(all, new SharedReceiveQueueOptions().setRqSize(512)
        .setRcqSize(512).setDrainBatch(4).setDrainBudget(8));
  }

  /**
   * Posts one receive per slot; each message is recorded (client and number from its bytes,
   * checked against the connection it was attributed to), then handed to {@code then}.
   */
  private void receiveAll(BiConsumer<SharedReceived, Integer> then) {
    for (int slot = 0; slot < CLIENTS * MESSAGES; slot++) {
      int at = slot;
      f.queue.recv(f.inbox, (long) slot * SLOT, SLOT).onComplete(ar -> {
        if (ar.failed()) {
          receiveFailures.add(ar.cause());
          return;
        }
        byte[] bytes = f.inboxBytes(at * SLOT, ar.result().byteLength());
        int client = (bytes[0] & 0xff) << 8 | (bytes[1] & 0xff);
        int m = bytes[2];
        // the fixture maps a connection when its accept completes: a message may not come first
        Integer attributed = f.clientOf.get(ar.result().connection());
        if (attributed == null || attributed != client) {
          receiveFailures.add(new AssertionError("client " + client + "'s message " + m
              + " attributed to " + (attributed == null ? "a connection whose accept has not"
              + " completed" : "client " + attributed)));
        }
        delivered.computeIfAbsent(client, k -> new CopyOnWriteArrayList<>()).add(m);
        then.accept(ar.result(), m);
      });
    }
  }

  /** Client {@code n}'s sends, all at once; each Future says whether that send completed. */
  private List<Future<Void>> sendAll(RpmaConnection client, int n) {
    List<Future<Void>> sends = new ArrayList<>();
    for (int m = 0; m < MESSAGES; m++) {
      sends.add(f.send(client, n, m, n * MESSAGES + m));
    }
    return sends;
  }

  /**
   * Every send that completed was delivered once, and each client's deliveries are its messages
   * in the order it sent them (a send that failed may still have been delivered: its message
   * may have landed before the acknowledgement was lost).
   */
  private void assertEveryCompletedSendDeliveredOnceInOrder(Map<Integer, List<Future<Void>>> sent) {
    long deadline = System.nanoTime() + Await.SECONDS * 1_000_000_000L;
    for (int n = 0; n < CLIENTS; n++) {
      List<Integer> completed = new ArrayList<>();
      List<Future<Void>> sends = sent.get(n);
      for (int m = 0; m < MESSAGES; m++) {
        if (sends.get(m).succeeded()) {
          completed.add(m);
        }
      }
      while (!delivered.getOrDefault(n, List.of()).containsAll(completed)
          && System.nanoTime() < deadline && receiveFailures.isEmpty()) {
        sleep(10);
      }
      assertTrue(receiveFailures.isEmpty(), () -> receiveFailures.size() + " receives failed"
          + " or were misattributed, the first: " + receiveFailures.get(0));
      List<Integer> got = delivered.getOrDefault(n, List.of());
      assertTrue(got.containsAll(completed), "client " + n + ": completed sends " + completed
          + ", delivered " + got);
      for (int i = 1; i < got.size(); i++) {
        assertTrue(got.get(i) > got.get(i - 1), "client " + n + ": out of order or twice: " + got);
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void clientsClosingRightAfterTheirSendsCompleteHaveEveryMessageDeliveredInOrder() {
    start();
    receiveAll((r, m) -> { });
    Map<Integer, List<Future<Void>>> sent = new ConcurrentHashMap<>();
    List<Future<Void>> closed = new ArrayList<>();
    for (int n = 0; n < CLIENTS; n++) {
      RpmaConnection client = f.connectClient(n);
      List<Future<Void>> sends = sendAll(client, n);
      sent.put(n, sends);
      // closed the moment its last send completed: its messages are still in the queue's CQ
      closed.add(Future.join(sends).transform(ar -> client.close()));
    }
    await(Future.join(closed));

    assertEveryCompletedSendDeliveredOnceInOrder(sent);
    for (int n = 0; n < CLIENTS; n++) {
      for (Future<Void> send : sent.get(n)) {
        assertTrue(send.succeeded(), "client " + n + ": " + send.cause());
      }
      assertEquals(MESSAGES, delivered.get(n).size(), "client " + n);
    }
  }

  @Test
  void connectionsClosedFromAReceiveCallbackLoseNoCompletedSendAndKeepTheOrder() {
    start();
    // client n's server-side connection is closed from the callback of its message 5 + 3n
    receiveAll((r, m) -> {
      Integer client = f.clientOf.get(r.connection());
      if (client != null && m == 5 + 3 * client) {
        r.connection().close();
      }
    });
    Map<Integer, List<Future<Void>>> sent = new ConcurrentHashMap<>();
    List<Future<Void>> all = new ArrayList<>();
    for (int n = 0; n < CLIENTS; n++) {
      RpmaConnection client = f.connectClient(n);
      List<Future<Void>> sends = sendAll(client, n);
      sent.put(n, sends);
      all.addAll(sends);
    }
    await(Future.join(all).otherwiseEmpty());

    assertEveryCompletedSendDeliveredOnceInOrder(sent);
    for (int n = 0; n < CLIENTS; n++) {
      List<Integer> got = delivered.get(n);
      assertTrue(got.size() >= 6 + 3 * n, "client " + n + " delivered " + got);
    }
  }
}
