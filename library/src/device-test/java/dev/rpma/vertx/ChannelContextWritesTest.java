package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Writes made on the channel's own context: while credit and send buffers last they go out at
 * once, their Future the send's (SendSide.sendNow); then they wait in the queue. Either way
 * they arrive in order and their Futures complete on the channel's context.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class ChannelContextWritesTest {

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
