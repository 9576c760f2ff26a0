package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.OpKind;
import org.junit.jupiter.api.Test;

class FlowControlTest {

  @Test
  void sendsStopAtTheSmallerOfSendQueueAndCq() {
    FlowControl flow = new FlowControl(new ConnectionOptions().setSqSize(8).setCqSize(4));
    for (int i = 0; i < 4; i++) {
      assertTrue(flow.hasRoom(OpKind.WRITE));
      flow.acquire(OpKind.WRITE);
    }

    assertFalse(flow.hasRoom(OpKind.WRITE));
  }

  @Test
  void withoutAReceiveCqReceivesAndSendsShareTheCq() {
    FlowControl flow = new FlowControl(new ConnectionOptions().setCqSize(4).setSqSize(4)
        .setRqSize(4));
    flow.acquire(OpKind.RECV);
    flow.acquire(OpKind.RECV);
    flow.acquire(OpKind.WRITE);
    flow.acquire(OpKind.WRITE);

    assertFalse(flow.hasRoom(OpKind.WRITE), "the CQ holds 4 completions");
    assertFalse(flow.hasRoom(OpKind.RECV), "the CQ holds 4 completions");
  }

  @Test
  void aReceiveCqGivesReceivesTheirOwnRoom() {
    FlowControl flow = new FlowControl(new ConnectionOptions().setCqSize(2).setSqSize(2)
        .setRqSize(2).setRcqSize(2));
    flow.acquire(OpKind.WRITE);
    flow.acquire(OpKind.WRITE);

    assertTrue(flow.hasRoom(OpKind.RECV));
  }

  @Test
  void aCompletionMakesRoomAgain() {
    FlowControl flow = new FlowControl(new ConnectionOptions().setCqSize(1).setSqSize(1));
    flow.acquire(OpKind.FLUSH);
    flow.release(OpKind.FLUSH);

    assertTrue(flow.hasRoom(OpKind.FLUSH));
  }
}
