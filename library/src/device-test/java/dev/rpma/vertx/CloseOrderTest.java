package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A region closed while an operation uses it is released only after that operation's Future
 * completed: code that recycles the buffer when the region closes (a pool) never races the
 * operation's own callback.
 */
@Tag("rdma")
class CloseOrderTest extends SharedLoopbackTestBase {

  private static final int ROUNDS = 300;

  @Test
  void aRegionsCloseNeverCompletesBeforeTheLastOperationsFuture() {
    for (int round = 0; round < ROUNDS; round++) {
      MemoryRegion region = await(pair.clientPeer.register(ByteBuffer.allocateDirect(64),
          MemoryUsage.WRITE_SRC));
      Promise<Boolean> operationFirst = Promise.promise();
      pair.client.context().runOnContext(v -> {
        Future<Void> write = pair.client.write(pair.remote, 0, region, 0, 64);
        region.close().onComplete(ar -> operationFirst.complete(write.isComplete()));
      });
      assertTrue(await(operationFirst.future()),
          "round " + round + ": the region's close completed before the write's Future");
    }
  }
}
