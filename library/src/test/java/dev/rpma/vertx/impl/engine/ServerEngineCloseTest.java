package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.OpKind;
import dev.rpma.vertx.RpmaConnectionClosedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's close racing its requests: what is pending is answered, nothing leaks or hangs. */
class ServerEngineCloseTest extends ServerEngineTestBase {

  @Test
  void closeRejectsTheRequestsNobodyAnswered() {
    listen();
    arrive(2);
    await(close());
    assertEquals(1, count("delete 1"));
    assertEquals(1, count("delete 2"));
    assertEquals(0, (int) onLoop(() -> server.openRequests()));
  }

  @Test
  void closeShutsTheEndpointDownAfterLettingGoOfItsFd() {
    listen();
    arrive(1);
    await(close());
    assertEquals(List.of("watch 400", "unwatch 400", "delete 1", "close accepted", "shutdown"),
        log);
    assertFalse(io.isWatched(FakeEndpoint.FD));
    assertEquals(1, closedCalls);
  }

  @Test
  void closeFailsTheReceivesPostedOnARequestNobodyAnswered() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Future<dev.rpma.vertx.Received> receive = offerReceive(request);
    await(close());
    Throwable why = failure(receive);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertEquals("recv: the request was rejected: the server is closed", why.getMessage());
    assertEquals(0, local.holds);
  }

  @Test
  void aRequestRefusesReceivesOnceTheServerClosed() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(close());
    assertFalse(request.offer(new QueuedOp(OpKind.RECV, local, 0, null, 0, 64, 0,
        context.promise())));
  }

  @Test
  void acceptAfterCloseFailsSayingTheServerIsClosed() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(close());
    Throwable why = failure(accept(request));
    assertEquals("the server is closed", why.getMessage());
  }

  @Test
  void acceptAfterCloseNeitherConnectsNorDeletesTheRequestAgain() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(close());
    failure(accept(request));
    assertEquals(1, count("delete 1"));
    assertEquals(0, count("connect 1"));
  }

  @Test
  void rejectAfterCloseDeletesTheRequestOnlyOnce() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(close());
    reject(request);
    assertEquals(1, count("delete 1"));
  }

  @Test
  void closeWaitsForAnAcceptInProgress() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Promise<String> connecting = Promise.promise();
    accept(request, (req, receives) -> connecting.future());
    Future<Void> closed = close();
    settle();
    assertFalse(closed.isComplete());
    assertEquals(0, count("shutdown"));
    onLoop(() -> connecting.tryComplete("connected"));
    await(closed);
    assertEquals(1, count("shutdown"));
  }

  @Test
  void closeDoesNotDeleteARequestBeingAccepted() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Promise<String> connecting = Promise.promise();
    accept(request, (req, receives) -> connecting.future());
    Future<Void> closed = close();
    onLoop(() -> connecting.tryComplete("connected"));
    await(closed);
    assertEquals(0, count("delete 1"));
  }

  @Test
  void closeClosesWhatWasAcceptedOnlyAfterTheAcceptsInProgressSettled() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Promise<String> connecting = Promise.promise();
    accept(request, (req, receives) -> connecting.future());
    close();
    settle();
    assertEquals(0, count("close accepted"));
    onLoop(() -> connecting.tryFail("accept failed"));
    settle();
    assertEquals(1, count("close accepted"));
  }

  @Test
  void closeWaitsForTheAcceptedConnectionsToClose() {
    acceptedClosed = Promise.promise();
    listen();
    Future<Void> closed = close();
    settle();
    assertFalse(closed.isComplete());
    assertEquals(0, count("shutdown"));
    acceptedClosed.complete();
    await(closed);
    assertEquals(1, count("shutdown"));
  }

  @Test
  void aRequestArrivingWhileTheServerClosesIsNotTaken() {
    listen();
    Promise<String> connecting = Promise.promise();
    accept(arrive(1).get(0), (req, receives) -> connecting.future());
    close();
    endpoint.arrive();
    assertFalse(onLoop(() -> io.fire(FakeEndpoint.FD)), "the listener's fd is still watched");
    assertEquals(1, handedOut.size());
    onLoop(() -> connecting.tryComplete("connected"));
  }

  @Test
  void closeTwiceShutsTheEndpointDownOnce() {
    listen();
    await(close());
    await(close());
    assertEquals(1, count("shutdown"));
    assertEquals(1, closedCalls);
  }

  @Test
  void closeOfAServerWhoseStartFailedShutsItsEndpointDown() {
    endpoint.failFd = new IllegalStateException("rpma_ep_get_fd failed");
    failure(startServer());
    await(close());
    assertEquals(List.of("close accepted", "shutdown"), log);
    assertTrue(closedCalls == 1);
  }
}
