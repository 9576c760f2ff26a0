package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static dev.rpma.vertx.SharedQueueFixture.SLOT;
import static dev.rpma.vertx.SharedQueueFixture.message;
import static dev.rpma.vertx.SharedQueueFixture.onContext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A shared receive queue on the device: many clients through one receive queue and one receive
 * CQ, every message attributed to the connection it came from and its bytes checked; one
 * client leaving while the others go on; the queue's close.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class SharedReceiveQueueTest {

  static final int CLIENTS = 64;
  static final int MESSAGES = 4;

  /** A message as the queue delivered it, its bytes copied out of its receive's slot. */
  record Delivery(SharedReceived received, byte[] bytes) {
  }

  private SharedQueueFixture f;
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  /** A receive at slot {@code slot}, posted again after each message while fewer than wanted. */
  private void keepReceiving(int slot, int wanted, Promise<Void> done) {
    f.queue.recv(f.inbox, (long) slot * SLOT, SLOT).onComplete(ar -> {
      if (ar.failed()) {
        done.tryFail(ar.cause());
        return;
      }
      deliveries.add(new Delivery(ar.result(), f.inboxBytes(slot * SLOT,
          ar.result().byteLength())));
      if (deliveries.size() >= wanted) {
        done.tryComplete();
      } else {
        keepReceiving(slot, wanted, done);
      }
    });
  }

  /** Every delivery came from the connection its bytes name, exactly as that client sent it. */
  private void assertAttributedAndIntact(int expectedCount) {
    f.awaitAccepted();
    Set<Integer> seen = new HashSet<>();
    for (Delivery d : deliveries) {
      Integer client = f.clientOf.get(d.received().connection());
      assertNotNull(client, "a message attributed to no accepted connection");
      int m = d.bytes()[2];
      assertArrayEquals(message(client, m), d.bytes(),
          "message " + m + " attributed to client " + client);
      assertEquals(m % 2 == 1, d.received().hasImmediate());
      if (d.received().hasImmediate()) {
        assertEquals(client << 8 | m, d.received().immediate());
      }
      assertTrue(seen.add(client * 1000 + m), "delivered twice: " + client + "/" + m);
    }
    assertEquals(expectedCount, seen.size());
  }

  @Test
  void sixtyFourClientsShareOneQueueAndEveryMessageIsAttributedToItsConnection() {
    f = new SharedQueueFixture(CLIENTS * MESSAGES,
        new SharedReceiveQueueOptions().setRqSize(64).setRcqSize(64));
    Promise<Void> all = Promise.promise();
    int total = CLIENTS * MESSAGES;
    for (int slot = 0; slot < 64; slot++) {
      keepReceiving(slot, total, all);
    }
    List<RpmaConnection> clients = new ArrayList<>();
    for (int n = 0; n < CLIENTS; n++) {
      clients.add(f.connectClient(n));
    }

    List<Future<Void>> sends = new ArrayList<>();
    for (int n = 0; n < CLIENTS; n++) {
      for (int m = 0; m < MESSAGES; m++) {
        sends.add(f.send(clients.get(n), n, m, n * MESSAGES + m));
      }
    }
    await(Future.all(sends));
    await(all.future());

    assertAttributedAndIntact(total);
    assertEquals(CLIENTS, f.clientOf.size());
    CompletionStats queueStats = await(onContext(f.queue.context(),
        () -> Future.succeededFuture(f.queue.stats())));
    assertEquals(total, queueStats.completions(), "every message through the queue's one CQ");
    for (RpmaConnection serverSide : f.clientOf.keySet()) {
      CompletionStats own = RdmaTestSupport.statsOf(serverSide);
      // an idle connection's keepalive probes (a zero-byte read each) are all its CQ carried
      assertEquals(own.keepAliveProbes(), own.completions(),
          "no message completed on a connection's own CQ: they all went to the queue's");
    }
  }

  @Test
  void oneClientClosingLeavesTheQueuesReceivesToTheOthers() {
    f = new SharedQueueFixture(64, new SharedReceiveQueueOptions().setRqSize(16));
    int posted = 8;
    List<Future<SharedReceived>> receives = new ArrayList<>();
    for (int slot = 0; slot < posted; slot++) {
      int at = slot;
      receives.add(f.queue.recv(f.inbox, (long) slot * SLOT, SLOT)
          .onSuccess(r -> deliveries.add(new Delivery(r, f.inboxBytes(at * SLOT,
              r.byteLength())))));
    }
    List<RpmaConnection> clients = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      clients.add(f.connectClient(n));
    }
    f.awaitAccepted();
    Promise<Throwable> leftServerSide = Promise.promise();
    f.clientOf.forEach((c, n) -> {
      if (n == 0) {
        c.closeHandler(leftServerSide::tryComplete);
      }
    });
    await(f.send(clients.get(0), 0, 0, 0));

    await(clients.get(0).close());
    assertInstanceOf(RpmaConnectionClosedException.class, await(leftServerSide.future()));
    List<Future<Void>> sends = new ArrayList<>();
    int m = 1;
    for (int i = 1; i < posted; i++, m++) {
      int n = 1 + i % 3;
      sends.add(f.send(clients.get(n), n, m, i));
    }
    await(Future.all(sends));
    await(Future.all(receives));

    assertAttributedAndIntact(posted);
  }

  @Test
  void closingTheQueueClosesItsConnectionsAndFailsTheReceivesStillPosted() {
    f = new SharedQueueFixture(16, new SharedReceiveQueueOptions().setRqSize(8));
    List<Future<SharedReceived>> receives = new ArrayList<>();
    for (int slot = 0; slot < 4; slot++) {
      receives.add(f.queue.recv(f.inbox, (long) slot * SLOT, SLOT));
    }
    RpmaConnection client = f.connectClient(1);
    Promise<Throwable> clientHeard = Promise.promise();
    client.closeHandler(clientHeard::tryComplete);
    f.awaitAccepted();

    await(f.queue.close());

    for (Future<SharedReceived> r : receives) {
      Throwable e = awaitFailure(r);
      assertInstanceOf(RpmaQueueClosedException.class, e);
      assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }
    assertInstanceOf(RpmaConnectionClosedException.class, await(clientHeard.future()));
    assertInstanceOf(RpmaQueueClosedException.class,
        awaitFailure(f.queue.recv(f.inbox, 0, SLOT)));
    // the server went with its queue: nobody listens (short timeout: a refusal or a timeout)
    awaitFailure(f.clientPeer.connect(new RpmaConnectOptions().setHost(f.ip).setPort(f.port)
        .setConnectionOptions(new ConnectionOptions().setConnectTimeoutMs(3000))
        .setPrivateData(new byte[2])));
  }

  @Test
  void closingThePeerClosesItsQueueAndFailsItsReceives() {
    f = new SharedQueueFixture(4, new SharedReceiveQueueOptions());
    Future<SharedReceived> posted = f.queue.recv(f.inbox, 0, SLOT);

    await(f.serverPeer.close());

    assertInstanceOf(RpmaQueueClosedException.class, awaitFailure(posted));
  }

  @Test
  void aClientConnectionAttachedToItsOwnQueueReceivesThroughIt() {
    f = new SharedQueueFixture(4, new SharedReceiveQueueOptions());
    RpmaSharedReceiveQueue clientQueue = await(f.clientPeer.createSharedReceiveQueue(
        new SharedReceiveQueueOptions().setRqSize(4).setRcqSize(4)));
    Future<SharedReceived> received = clientQueue.recv(f.outbox, 64, SLOT);
    RpmaConnection client = await(onContext(clientQueue.context(), () -> f.clientPeer.connect(
        new RpmaConnectOptions().setHost(f.ip).setPort(f.port).setPrivateData(new byte[] {0, 9})
            .setSharedReceiveQueue(clientQueue))));
    f.awaitAccepted(1);
    RpmaConnection serverSide = f.clientOf.keySet().iterator().next();
    byte[] bytes = message(9, 1);
    f.inbox.buffer().put(0, bytes);

    await(serverSide.sendWithImm(f.inbox, 0, bytes.length, 77));
    SharedReceived r = await(received);

    assertEquals(client, r.connection());
    assertEquals(bytes.length, r.byteLength());
    assertEquals(77, r.immediate());
    byte[] got = new byte[bytes.length];
    f.outbox.buffer().get(64, got);
    assertArrayEquals(bytes, got);
  }

  @Test
  void aMessageLongerThanItsReceiveFailsThatReceiveAndClosesOnlyItsConnection() {
    f = new SharedQueueFixture(8, new SharedReceiveQueueOptions().setRqSize(4));
    Future<SharedReceived> tooShort = f.queue.recv(f.inbox, 0, 16);
    RpmaConnection sender = f.connectClient(0);
    RpmaConnection other = f.connectClient(1);
    f.awaitAccepted();
    Promise<Throwable> senderServerSide = Promise.promise();
    f.clientOf.forEach((c, n) -> {
      if (n == 0) {
        c.closeHandler(senderServerSide::tryComplete);
      }
    });

    f.send(sender, 0, 3, 0); // message(0, 3): 47 bytes, longer than the receive
    RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class,
        awaitFailure(tooShort));
    Throwable why = await(senderServerSide.future());
    Future<SharedReceived> next = f.queue.recv(f.inbox, SLOT, SLOT);
    await(f.send(other, 1, 2, 1));

    assertTrue(e.getMessage().contains("shared receive queue"), e.getMessage());
    assertTrue(why.getMessage().contains("error state"), why.getMessage());
    assertEquals(1, f.clientOf.get(await(next).connection()));
  }
}
