package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.RpmaException;
import io.vertx.core.Future;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The server's request loop, accept and reject; requests at the fd limit; listener failures. */
class ServerEngineRequestTest extends ServerEngineTestBase {

  private static final int EMFILE = 24;

  @Test
  void oneReadinessTakesEveryPendingRequest() {
    listen();
    assertEquals(3, arrive(3).size());
  }

  @Test
  void aRequestCarriesItsClientsPrivateData() {
    listen();
    assertArrayEquals(new byte[] {7}, arrive(1).get(0).privateData());
  }

  @Test
  void anEventThatIsNoRequestIsSkippedAndTheNextRequestTaken() {
    listen();
    endpoint.pending.add(new LibrpmaEndpoint.NotARequest(new RuntimeException("RPMA_E_INVAL")));
    endpoint.arrive();
    readable();
    assertEquals(1, handedOut.size());
  }

  @Test
  void aRequestThatCannotBeTakenAtTheFdLimitLeavesTheListenerListening() {
    listen();
    endpoint.failNext(EMFILE);
    readable();
    assertTrue(io.isWatched(FakeEndpoint.FD));
    assertEquals(0, count("shutdown"));
    assertEquals(1, arrive(1).size());
  }

  @Test
  void anAcceptAtTheFdLimitRejectsTheRequest() {
    listen();
    ServerRequest request = arrive(1).get(0);
    lackingFds = new RpmaException("cannot accept: 2 file descriptors are needed", -1, EMFILE);
    Throwable why = failure(accept(request));
    assertSame(lackingFds, why);
    assertEquals(1, count("delete 1"));
    assertEquals(0, count("connect 1"));
  }

  @Test
  void anAcceptAtTheFdLimitFailsTheRequestsReceivesSayingWhy() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Future<dev.rpma.vertx.Received> receive = offerReceive(request);
    lackingFds = new RpmaException("cannot accept: 2 file descriptors are needed", -1, EMFILE);
    failure(accept(request));
    Throwable why = failure(receive);
    assertTrue(why instanceof RpmaConnectionClosedException);
    assertEquals("recv: the request was rejected: cannot accept: 2 file descriptors are needed",
        why.getMessage());
    assertEquals(0, local.holds);
  }

  @Test
  void anAcceptGivesTheReceivesPostedOnTheRequestToTheConnection() {
    listen();
    ServerRequest request = arrive(1).get(0);
    offerReceive(request);
    AtomicReference<List<QueuedOp>> given = new AtomicReference<>();
    await(accept(request, (req, receives) -> {
      given.set(receives);
      return context.succeededFuture();
    }));
    assertEquals(1, given.get().size());
    assertFalse(request.offer(given.get().get(0)), "an answered request took a receive");
  }

  @Test
  void anAcceptedRequestIsNoLongerOpen() {
    listen();
    await(accept(arrive(1).get(0)));
    assertEquals(0, (int) onLoop(() -> server.openRequests()));
  }

  @Test
  void aFailingConnectSettlesTheRequest() {
    listen();
    ServerRequest request = arrive(1).get(0);
    failure(accept(request, (req, receives) -> {
      throw new RpmaException("rpma_conn_req_connect failed", -1, 0);
    }));
    assertEquals(0, (int) onLoop(() -> server.openRequests()));
  }

  @Test
  void rejectDeletesTheRequest() {
    listen();
    reject(arrive(1).get(0));
    assertEquals(1, count("delete 1"));
    assertEquals(0, (int) onLoop(() -> server.openRequests()));
  }

  @Test
  void rejectFailsTheRequestsReceives() {
    listen();
    ServerRequest request = arrive(1).get(0);
    Future<dev.rpma.vertx.Received> receive = offerReceive(request);
    reject(request);
    assertEquals("recv: the request was rejected", failure(receive).getMessage());
  }

  @Test
  void rejectAfterAcceptDoesNothing() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(accept(request));
    reject(request);
    assertEquals(0, count("delete 1"));
  }

  @Test
  void aSecondAcceptFailsSayingTheRequestWasAnswered() {
    listen();
    ServerRequest request = arrive(1).get(0);
    await(accept(request));
    assertEquals("this request was already answered", failure(accept(request)).getMessage());
    assertEquals(1, count("connect 1"));
  }

  @Test
  void aListenerWhoseFdCannotBeHadDoesNotStart() {
    endpoint.failFd = new IllegalStateException("rpma_ep_get_fd failed");
    assertSame(endpoint.failFd, failure(startServer()));
    assertFalse(io.isWatched(FakeEndpoint.FD));
  }

  @Test
  void anExceptionOnTheListenersPathDeletesTheRequestBeingTaken() {
    listen();
    endpoint.arrive().failPrivateData = new NoClassDefFoundError("a class not loadable");
    readable();
    assertEquals(1, count("delete 1"));
    assertEquals(0, handedOut.size());
  }

  @Test
  void anExceptionOnTheListenersPathClosesTheServer() {
    listen();
    arrive(1);
    endpoint.arrive().failPrivateData = new NoClassDefFoundError("a class not loadable");
    readable();
    settle();
    assertEquals(1, count("delete 1"), "the unanswered request was rejected");
    assertEquals(1, count("shutdown"));
    assertEquals(1, closedCalls);
  }
}
