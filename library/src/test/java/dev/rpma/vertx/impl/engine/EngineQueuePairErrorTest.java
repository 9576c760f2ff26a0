package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An error completion puts the queue pair in the error state: the connection closes. */
class EngineQueuePairErrorTest extends EngineTestBase {

  private static final int REM_ACCESS_ERR = RpmaCompletionException.REM_ACCESS_ERR;
  private static final int WR_FLUSH_ERR = RpmaCompletionException.WR_FLUSH_ERR;

  private List<Throwable> closedWith;

  private void openWatchingClose() {
    open();
    closedWith = watchClose();
  }

  @Test
  void anErrorCompletionClosesTheConnectionAndCallsTheCloseHandlerOnce() {
    openWatchingClose();
    Future<Void> w = write();
    conn.fail(conn.last(), REM_ACCESS_ERR);
    cqReady();
    assertInstanceOf(RpmaCompletionException.class, failure(w), "the operation itself");
    await(engine.whenClosed());
    settle();
    assertEquals(1, closedWith.size());
    assertTrue(closedWith.get(0).getMessage().contains("error state"),
        closedWith.get(0).getMessage());
    assertInstanceOf(RpmaCompletionException.class, closedWith.get(0).getCause());
  }

  @Test
  void theOperationsFlushedAfterItFailAsClosedWithTheOriginalErrorBehind() {
    openWatchingClose();
    Future<Void> bad = write();
    Future<Void> flushed = write();
    conn.fail(conn.posted.get(0), REM_ACCESS_ERR);
    conn.fail(conn.posted.get(1), WR_FLUSH_ERR);
    cqReady();
    Throwable original = failure(bad);
    Throwable why = failure(flushed);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertTrue(why.getMessage().contains("error state"), why.getMessage());
    assertSame(original, why.getCause().getCause(), "the original error is behind it");
  }

  @Test
  void nothingIsPostedAfterAnErrorCompletion() {
    openWatchingClose();
    write();
    conn.fail(conn.last(), REM_ACCESS_ERR);
    onLoop(() -> {
      io.fire(MAIN_CQ_FD);
      return null;
    });
    int postedBefore = conn.posted.size();
    Throwable why = failure(write());
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertEquals(postedBefore, conn.posted.size());
  }

  @Test
  void aReceiveErrorOnItsSharedQueueClosesTheConnectionWithThatErrorAsTheReason() {
    openWatchingClose();
    RpmaCompletionException error = new RpmaCompletionException("recv", 1, "local length", 0);

    onLoop(() -> {
      engine.onSharedReceiveError(1, error);
      return null;
    });
    await(engine.whenClosed());
    settle();

    assertEquals(1, closedWith.size());
    assertTrue(closedWith.get(0).getMessage().contains("error state"),
        closedWith.get(0).getMessage());
    assertSame(error, closedWith.get(0).getCause());
  }
}
