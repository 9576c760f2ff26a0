package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnectionClosedException;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Receives posted on a connection request, before the accept (rpma_conn_req_recv). */
class EnginePrepostTest extends EngineTestBase {

  private final List<Long> prepostedWrIds = new ArrayList<>();

  private Future<Received> prepost() {
    return onLoop(() -> {
      PromiseInternal<Received> p = context.promise();
      engine.prepostReceive(new QueuedOp(OpKind.RECV, local.held(), 0, null, 0, 64, 0, p),
          prepostedWrIds::add);
      return p.future();
    });
  }

  private void newEngine() {
    onLoop(() -> {
      engine = new ConnectionEngine(context, options(), "accepted", io,
          SYNC_SETUP, OperationMetrics.NONE);
      return null;
    });
  }

  @Test
  void aPrepostedReceiveCompletesLikeAnyOtherOnceTheConnectionRuns() {
    newEngine();
    Future<Received> r = prepost();
    onLoop(() -> engine.start(conn));
    conn.events.add(CmEvent.ESTABLISHED);
    onLoop(() -> io.fire(EVENT_FD));
    conn.main.ready.add(new FakeLibrpma.Wc(prepostedWrIds.get(0), 0, 9, false, 0));
    cqReady();
    assertEquals(9, await(r).byteLength());
  }

  @Test
  void receivesBeyondTheReceiveQueueFailAloneAndHoldNothing() {
    newEngine();
    for (int i = 0; i < 4; i++) {
      prepost();
    }
    Throwable why = failure(prepost());
    assertTrue(why.getMessage().contains("rqSize"), why.getMessage());
    assertEquals(4, local.holds);
  }

  @Test
  void anAcceptThatFailsFailsThePrepostedReceivesAndReleasesTheirRegions() {
    newEngine();
    Future<Received> r = prepost();
    onLoop(() -> {
      engine.abandon(new RpmaConnectionClosedException("accept failed"));
      return null;
    });
    Throwable why = failure(r);
    assertInstanceOf(RpmaConnectionClosedException.class, why);
    assertTrue(why.getMessage().contains("accept failed"), why.getMessage());
    assertEquals(0, local.holds);
    await(engine.whenClosed());
  }
}
