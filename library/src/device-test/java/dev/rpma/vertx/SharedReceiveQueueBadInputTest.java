package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static dev.rpma.vertx.SharedQueueFixture.onContext;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a shared receive queue refuses, each with a message that names the cause and the fix. */
@Tag("rdma")
class SharedReceiveQueueBadInputTest {

  private SharedQueueFixture f;

  @BeforeEach
  void start() {
    f = new SharedQueueFixture(4, new SharedReceiveQueueOptions().setRqSize(4).setRcqSize(4));
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static Throwable refused(Future<?> future, Class<? extends Throwable> type,
      String... words) {
    Throwable e = awaitFailure(future);
    assertInstanceOf(type, e, String.valueOf(e));
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), e.getMessage());
    }
    return e;
  }

  @Test
  void aReceiveOnAConnectionAttachedToAQueueIsRefusedNamingTheQueuesRecv() {
    f.connectClient(0);
    f.awaitAccepted();
    RpmaConnection serverSide = f.clientOf.keySet().iterator().next();

    refused(serverSide.recv(f.inbox, 0, 64), IllegalStateException.class,
        "shared receive queue", "RpmaSharedReceiveQueue.recv");
  }

  @Test
  void aReceiveOnARequestOfAServerWithAQueueIsRefused() {
    int port = RdmaTestSupport.nextPort();
    Promise<Future<Received>> onRequest = Promise.promise();
    await(onContext(f.queue.context(), () -> f.serverPeer.listen(port, f.ip,
        new ConnectionOptions(), f.queue, req -> {
          onRequest.complete(req.recv(f.inbox, 0, 64));
          req.accept(null);
        })));
    await(f.clientPeer.connect(port, f.ip));

    refused(await(onRequest.future()), IllegalStateException.class, "shared receive queue");
  }

  @Test
  void aQueueOfAnotherPeerIsRefused() {
    refused(onContext(f.queue.context(), () -> f.clientPeer.connect(new RpmaConnectOptions()
        .setHost(f.ip).setPort(f.port)
        .setSharedReceiveQueue(f.queue))), IllegalArgumentException.class,
        "another peer", "createSharedReceiveQueue");
  }

  @Test
  void aClosedQueueIsRefused() {
    RpmaSharedReceiveQueue closed = await(f.clientPeer.createSharedReceiveQueue(
        new SharedReceiveQueueOptions()));
    await(closed.close());

    refused(onContext(closed.context(), () -> f.clientPeer.connect(new RpmaConnectOptions()
        .setHost(f.ip).setPort(f.port)
        .setSharedReceiveQueue(closed))), IllegalStateException.class, "closed");
    refused(closed.recv(f.outbox, 0, 64), RpmaQueueClosedException.class, "closed");
  }

  @Test
  void aConnectionOnAnotherEventLoopIsRefusedNamingTheFix() {
    RpmaSharedReceiveQueue queue = await(f.clientPeer.createSharedReceiveQueue(
        new SharedReceiveQueueOptions()));
    Context other = otherLoopThan(queue.context());

    refused(onContext(other, () -> f.clientPeer.connect(new RpmaConnectOptions().setHost(f.ip)
        .setPort(f.port).setSharedReceiveQueue(queue))), IllegalStateException.class, "event loop",
        "queue.context()");
  }

  @Test
  void aSharedCompletionChannelWithAQueueIsRefused() {
    RpmaSharedReceiveQueue queue = await(f.clientPeer.createSharedReceiveQueue(
        new SharedReceiveQueueOptions()));

    refused(onContext(queue.context(), () -> f.clientPeer.connect(new RpmaConnectOptions()
        .setHost(f.ip).setPort(f.port)
        .setConnectionOptions(new ConnectionOptions().setSharedCompletionChannel(true))
        .setSharedReceiveQueue(queue))),
        IllegalArgumentException.class, "sharedCompletionChannel");
  }

  @Test
  void aRegionOfAnotherPeerIsRefusedByTheQueuesRecv() {
    refused(f.queue.recv(f.outbox, 0, 64), IllegalArgumentException.class, "another peer");
  }

  /** An event-loop context on another Netty loop than {@code context}'s. */
  private Context otherLoopThan(Context context) {
    VertxInternal vx = (VertxInternal) f.vertx;
    for (int i = 0; i < 64; i++) {
      ContextInternal candidate = vx.createEventLoopContext();
      if (candidate.nettyEventLoop() != ((ContextInternal) context).nettyEventLoop()) {
        assertNotSame(context, candidate);
        return candidate;
      }
    }
    throw new AssertionError("Vert.x has a single event loop: no other loop to try");
  }
}
