package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An error completion puts the queue pair in the error state: the library closes the
 * connection with that error as the reason instead of leaving it "open" and useless.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class QueuePairErrorTest {

  @Test
  void aRemoteAccessErrorClosesTheConnectionWithThatErrorAsTheReason() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    // the server's region takes writes only: a read of it is a remote access error
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(),
        EnumSet.of(MemoryUsage.WRITE_DST))) {
      Promise<Throwable> closed = Promise.promise();
      AtomicInteger calls = new AtomicInteger();
      pair.client.closeHandler(why -> {
        calls.incrementAndGet();
        closed.tryComplete(why);
      });

      Throwable readFailure = Await.awaitFailure(
          pair.client.read(pair.clientRegion, 0, pair.remote, 0, 64));
      Throwable why = await(closed.future());
      Throwable later = Await.awaitFailure(
          pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));

      RpmaCompletionException error = assertInstanceOf(RpmaCompletionException.class,
          readFailure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, error.status());
      assertInstanceOf(RpmaConnectionClosedException.class, why);
      assertTrue(why.getMessage().contains("error state"), why.getMessage());
      assertEquals(error, why.getCause(), "the reason's cause is the original error");
      assertInstanceOf(RpmaConnectionClosedException.class, later);
      assertEquals(1, calls.get(), "the close handler ran once");
    } finally {
      await(vertx.close());
    }
  }
}
