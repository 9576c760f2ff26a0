package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The message channel's contract, one behaviour per test (the long stream: ChannelStreamTest). */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class MessageChannelTest {

  private Vertx vertx;
  private ChannelPair pair;

  @BeforeEach
  void start() {
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterEach
  void stop() {
    if (pair != null) {
      pair.close();
    }
    await(vertx.close());
  }

  private void open(MessageChannelOptions server, MessageChannelOptions client) {
    pair = ChannelPair.open(vertx, server, client);
  }

  @Test
  void messagesArriveWholeAndInOrderBothWays() {
    open(new MessageChannelOptions(), new MessageChannelOptions());
    List<String> atServer = new ArrayList<>();
    List<String> atClient = new ArrayList<>();
    Promise<Void> serverGotAll = Promise.promise();
    Promise<Void> clientGotAll = Promise.promise();
    pair.serverSide.handler(b -> {
      atServer.add(b.toString());
      pair.serverSide.write(Buffer.buffer("re: " + b));
      if (atServer.size() == 3) {
        serverGotAll.complete();
      }
    });
    pair.client.handler(b -> {
      atClient.add(b.toString());
      if (atClient.size() == 3) {
        clientGotAll.complete();
      }
    });
    await(pair.client.write(Buffer.buffer("one")));
    await(pair.client.write(Buffer.buffer("")));
    await(pair.client.write(Buffer.buffer("three")));
    await(serverGotAll.future());
    await(clientGotAll.future());
    assertEquals(List.of("one", "", "three"), atServer);
    assertEquals(List.of("re: one", "re: ", "re: three"), atClient);
  }

  @Test
  void aMessageLargerThanThePeersBuffersFailsNamingBothSizesAndTheFix() {
    open(new MessageChannelOptions().setReceiveBufferSize(1024), new MessageChannelOptions());
    assertEquals(1024, pair.client.maxMessageSize());
    Throwable failure = awaitFailure(pair.client.write(Buffer.buffer(new byte[1025])));
    MessageTooLargeException e = assertInstanceOf(MessageTooLargeException.class, failure);
    assertEquals(1025, e.messageSize());
    assertEquals(1024, e.peerBufferSize());
    assertTrue(e.getMessage().contains("setReceiveBufferSize"), e.getMessage());
    // the channel goes on: a message of exactly the peer's size goes through
    Promise<Integer> got = Promise.promise();
    pair.serverSide.handler(b -> got.tryComplete(b.length()));
    await(pair.client.write(Buffer.buffer(new byte[1024])));
    assertEquals(1024, await(got.future()));
  }

  @Test
  void aPausedReaderStopsTheWriterAtThePeersPostedReceivesKeepingOneCredit() {
    int receives = 8;
    open(new MessageChannelOptions().setReceiveBuffers(receives),
        new MessageChannelOptions().setWriteQueueMaxSize(4));
    pair.serverSide.pause();
    List<Integer> got = new ArrayList<>();
    pair.serverSide.handler(b -> got.add(b.getInt(0)));
    Promise<Void> drained = Promise.promise();
    int written = ChannelPair.on(pair.client, () -> {
      int n = 0;
      while (!pair.client.writeQueueFull()) {
        pair.client.write(Buffer.buffer().appendInt(n++));
      }
      pair.client.drainHandler(v -> drained.tryComplete());
      return n;
    });
    await(vertx.timer(300));
    // the client spent every credit but the last (kept for a credit message)
    assertEquals(1, ChannelPair.stats(pair.client).credits());
    assertEquals(receives - 2, ChannelPair.stats(pair.serverSide).heldMessages());
    assertTrue(ChannelPair.on(pair.client, pair.client::writeQueueFull));
    assertFalse(drained.future().isComplete());

    pair.serverSide.resume();
    await(drained.future());
    await(vertx.timer(300));
    assertEquals(written, ChannelPair.on(pair.serverSide, got::size));
    for (int i = 0; i < written; i++) {
      assertEquals(i, got.get(i));
    }
  }

  @Test
  void aWriterOnAPlainThreadIsStoppedAtTheMaximumWhileTheLoopIsBusyAndNothingIsLost()
      throws InterruptedException {
    int max = 32;
    int total = 500;
    open(new MessageChannelOptions(), new MessageChannelOptions().setWriteQueueMaxSize(max));
    List<Integer> got = new ArrayList<>();
    Promise<Void> gotAll = Promise.promise();
    pair.serverSide.handler(b -> {
      got.add(b.getInt(0));
      if (got.size() == total) {
        gotAll.complete();
      }
    });
    // the writer's loop stays busy (a task that blocks it) until the writer has seen it full
    CountDownLatch loopBlocked = new CountDownLatch(1);
    CountDownLatch writerStopped = new CountDownLatch(1);
    pair.client.context().runOnContext(v -> {
      loopBlocked.countDown();
      try {
        writerStopped.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertTrue(loopBlocked.await(10, TimeUnit.SECONDS));

    // this test's thread is a plain thread, not a Vert.x one
    List<Future<Void>> writes = new ArrayList<>();
    while (!pair.client.writeQueueFull() && writes.size() < total) {
      writes.add(pair.client.write(Buffer.buffer().appendInt(writes.size())));
    }
    int acceptedBeforeFull = writes.size();
    Promise<Void> drained = Promise.promise();
    pair.client.drainHandler(v -> drained.tryComplete());
    writerStopped.countDown();

    assertEquals(max, acceptedBeforeFull, "writes accepted before writeQueueFull()");
    await(drained.future());
    while (writes.size() < total) { // the rest, stopping at each full queue until it drains
      if (pair.client.writeQueueFull()) {
        Promise<Void> room = Promise.promise();
        pair.client.drainHandler(v -> room.tryComplete());
        await(room.future());
      }
      writes.add(pair.client.write(Buffer.buffer().appendInt(writes.size())));
    }
    await(Future.all(writes));
    await(gotAll.future());
    List<Integer> inOrder = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      inOrder.add(i);
    }
    assertEquals(inOrder, ChannelPair.on(pair.serverSide, () -> List.copyOf(got)));
  }

  @Test
  void fetchHandsOverExactlyTheMessagesAskedFor() {
    open(new MessageChannelOptions(), new MessageChannelOptions());
    pair.serverSide.pause();
    List<String> got = new ArrayList<>();
    pair.serverSide.handler(b -> got.add(b.toString()));
    for (int i = 0; i < 5; i++) {
      await(pair.client.write(Buffer.buffer("m" + i)));
    }
    pair.serverSide.fetch(2);
    await(vertx.timer(100));
    assertEquals(List.of("m0", "m1"), ChannelPair.on(pair.serverSide, () -> List.copyOf(got)));
    pair.serverSide.fetch(3);
    await(vertx.timer(100));
    assertEquals(5, ChannelPair.on(pair.serverSide, got::size));
  }

  @Test
  void endSendsEverythingWrittenThenThePeerSeesTheEnd() {
    open(new MessageChannelOptions(), new MessageChannelOptions());
    List<Integer> got = new ArrayList<>();
    Promise<Integer> ended = Promise.promise();
    pair.serverSide.handler(b -> got.add(b.getInt(0)));
    pair.serverSide.endHandler(v -> ended.complete(got.size()));
    ChannelPair.on(pair.client, () -> {
      for (int i = 0; i < 500; i++) {
        pair.client.write(Buffer.buffer().appendInt(i));
      }
      return pair.client.end();
    });
    assertEquals(500, await(ended.future()));
    for (int i = 0; i < 500; i++) {
      assertEquals(i, got.get(i));
    }
  }

  @Test
  void messagesHeldByAPausedReaderAreStillHandedOverAfterThePeerClosed() {
    open(new MessageChannelOptions(), new MessageChannelOptions());
    pair.serverSide.pause();
    List<String> events = new ArrayList<>();
    Promise<Void> ended = Promise.promise();
    pair.serverSide.handler(b -> events.add(b.toString()));
    pair.serverSide.endHandler(v -> {
      events.add("end");
      ended.complete();
    });
    await(pair.client.write(Buffer.buffer("a")));
    await(pair.client.write(Buffer.buffer("b")));
    await(pair.client.close());
    await(vertx.timer(300));
    assertEquals(List.of(), ChannelPair.on(pair.serverSide, () -> List.copyOf(events)));
    pair.serverSide.resume();
    await(ended.future());
    assertEquals(List.of("a", "b", "end"), events);
  }

  @Test
  void writesAfterCloseFailAndTheCloseReleasesThePools() {
    open(new MessageChannelOptions(), new MessageChannelOptions());
    await(pair.client.close());
    Throwable failure = awaitFailure(pair.client.write(Buffer.buffer("late")));
    assertInstanceOf(IllegalStateException.class, failure);
  }

  @Test
  void aPlainConnectionToAChannelServerIsRejectedAndTheAcceptSaysWhy() {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer serverPeer = await(TestProvider.open(vertx, ip));
    RpmaPeer clientPeer = await(TestProvider.open(vertx, ip));
    Promise<Throwable> refused = Promise.promise();
    int port = RdmaTestSupport.nextPort();
    RpmaServer server = await(serverPeer.listen(port, ip, new ConnectionOptions(), req -> {
      assertFalse(RpmaMessageChannel.isChannelRequest(req));
      RpmaMessageChannel.accept(req, new MessageChannelOptions())
          .onComplete(ar -> refused.complete(ar.cause()));
    }));
    Throwable connectFailure = awaitFailure(clientPeer.connect(port, ip));
    // the server's refusal is what fails the connect; a connect that failed for another reason
    // (a device that no longer delivers connect requests, as after DeviceFaultTest's link
    // flap) fails here with that reason, instead of waiting for a request that never came
    assertInstanceOf(RpmaConnectionRejectedException.class, connectFailure,
        () -> "the connect failed, but not by the server's rejection: " + connectFailure);
    Throwable why = await(refused.future());
    assertInstanceOf(IllegalArgumentException.class, why);
    assertTrue(why.getMessage().contains("RpmaMessageChannel.connect"), why.getMessage());
    await(server.close());
    await(clientPeer.close());
    await(serverPeer.close());
  }

  @Test
  void optionsTheConnectionCannotHoldAreRefusedNamingTheSetter() {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    Throwable why = awaitFailure(RpmaMessageChannel.connect(peer, RdmaTestSupport.nextPort(), ip,
        new ConnectionOptions().setRqSize(16), new MessageChannelOptions().setReceiveBuffers(32)));
    assertInstanceOf(IllegalArgumentException.class, why);
    assertTrue(why.getMessage().contains("setRqSize(32)"), why.getMessage());
    await(peer.close());
  }

  // writes made on the channel's own context: while credit and send buffers last they go out
  // at once, their Future the send's (SendSide.sendNow); then they wait in the queue

  @Test
  void writesOnTheContextBeyondTheCreditArriveInOrderAndAllComplete() {
    int receives = 8; // 7 data messages go at once, the rest wait for credit
    int messages = 200;
    pair = ChannelPair.open(vertx, new MessageChannelOptions().setReceiveBuffers(receives),
        new MessageChannelOptions().setWriteQueueMaxSize(messages));
    List<Integer> got = new ArrayList<>();
    Promise<Void> all = Promise.promise();
    pair.serverSide.handler(b -> {
      got.add(b.getInt(0));
      if (got.size() == messages) {
        all.complete();
      }
    });
    List<Future<Void>> writes = ChannelPair.on(pair.client, () -> {
      List<Future<Void>> w = new ArrayList<>();
      for (int i = 0; i < messages; i++) {
        w.add(pair.client.write(Buffer.buffer().appendInt(i)));
      }
      return w;
    });
    await(Future.all(writes));
    await(all.future());
    assertEquals(listOfFirst(messages), ChannelPair.on(pair.serverSide, () -> List.copyOf(got)));
  }

  @Test
  void aWriteOnTheContextCompletesOnTheChannelsContext() {
    pair = ChannelPair.open(vertx, new MessageChannelOptions(), new MessageChannelOptions());
    Context channelContext = pair.client.context();
    Promise<Context> completedOn = Promise.promise();
    channelContext.runOnContext(v -> pair.client.write(Buffer.buffer("one"))
        .onComplete(ar -> completedOn.complete(Vertx.currentContext())));
    assertSame(channelContext, await(completedOn.future()));
  }

  @Test
  void aChannelMadeOnADuplicatedContextIsOnThatContextAndCompletesWritesThere() {
    // a duplicate of a loop's context: the same thread, another context (a verticle's
    // request handling gets such a one from Vert.x)
    Context made = ((ContextInternal) vertx.getOrCreateContext()).duplicate();
    pair = ChannelPair.open(vertx, new MessageChannelOptions(), new MessageChannelOptions(),
        made);
    assertSame(made, pair.client.context());
    Promise<Context> completedOn = Promise.promise();
    made.runOnContext(v -> pair.client.write(Buffer.buffer("one"))
        .onComplete(ar -> completedOn.complete(Vertx.currentContext())));
    assertSame(made, await(completedOn.future()));
  }

  private static List<Integer> listOfFirst(int n) {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(i);
    }
    return l;
  }
}
