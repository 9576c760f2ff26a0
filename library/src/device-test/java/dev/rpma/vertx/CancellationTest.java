package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.OperationsRoundTripTest.bytesAt;
import static dev.rpma.vertx.OperationsRoundTripTest.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the README's "Cancelling" section promises: giving up the wait (a cancelled coAwait, a
 * timeout) never withdraws the operation, and a receive whose wait was given up still takes
 * the next message, which its kept Future carries.
 */
@Tag("rdma")
class CancellationTest extends SharedLoopbackTestBase {

  @Test
  void aReceiveWhoseWaitWasGivenUpTakesTheNextMessageAndItsKeptFutureCarriesIt() {
    Future<Received> abandoned = pair.serverSide.recv(pair.serverRegion, 0, 256);
    // the application stops waiting, as a cancelled coroutine does
    Await.awaitFailure(abandoned.timeout(50, TimeUnit.MILLISECONDS));
    Future<Received> next = pair.serverSide.recv(pair.serverRegion, 4096, 256);
    RdmaTestSupport.settle(pair.serverSide);
    byte[] first = pattern(64, 3);
    byte[] second = pattern(96, 7);
    pair.clientBytes().put(0, first);
    pair.clientBytes().put(4096, second);

    await(pair.client.send(pair.clientRegion, 0, first.length));
    await(pair.client.send(pair.clientRegion, 4096, second.length));

    assertEquals(first.length, await(abandoned).byteLength(), "the first message went to the"
        + " receive posted first, whose wait was given up");
    assertArrayEquals(first, bytesAt(pair.serverBytes(), 0, first.length));
    assertEquals(second.length, await(next).byteLength());
    assertArrayEquals(second, bytesAt(pair.serverBytes(), 4096, second.length));
  }

  @Test
  void aWriteWhoseWaitWasGivenUpStillLandsAndCompletes() {
    byte[] data = pattern(512, 11);
    pair.clientBytes().put(8192, data);
    Future<Void> write = pair.client.write(pair.remote, 8192, pair.clientRegion, 8192,
        data.length);

    write.timeout(0, TimeUnit.MILLISECONDS); // the waiter gives up at once

    await(write);
    assertFalse(write.failed());
    assertArrayEquals(data, bytesAt(pair.serverBytes(), 8192, data.length));
  }
}
