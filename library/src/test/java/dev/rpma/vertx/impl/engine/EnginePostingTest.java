package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.CompletionStats;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The post path: what reaches librpma, in which order, and what waits for room. */
class EnginePostingTest extends EngineTestBase {

  @Test
  void anOperationIsPostedWithItsRegionsOffsetsAndLength() {
    open();
    onLoop(() -> {
      engine.submit(OpKind.WRITE, local.held(), 3, remote.held(), 5, 7, 0, context.promise());
      return null;
    });
    FakeLibrpma.Post p = conn.last();
    assertEquals(OpKind.WRITE, p.kind());
    assertEquals(List.of(11L, 3L, 22L, 5L, 7L),
        List.of(p.localMr(), p.localOffset(), p.remoteMr(), p.remoteOffset(), p.length()));
  }

  @Test
  void operationsArePostedInCallOrder() {
    open();
    write();
    recv();
    write();
    assertEquals(List.of(OpKind.WRITE, OpKind.RECV, OpKind.WRITE),
        conn.posted.stream().map(FakeLibrpma.Post::kind).toList());
  }

  @Test
  void operationsBeyondTheQueueWaitInsteadOfOverrunningIt() {
    open();
    for (int i = 0; i < 6; i++) {
      write();
    }
    assertEquals(4, conn.posted.size(), "sqSize and cqSize are 4");
    CompletionStats stats = onLoop(() -> engine.stats());
    assertEquals(2, stats.queuedOperations());
  }

  @Test
  void waitingOperationsGoOutAsCompletionsFreeRoom() {
    open();
    for (int i = 0; i < 6; i++) {
      write();
    }
    conn.complete(conn.posted.get(0));
    conn.complete(conn.posted.get(1));
    cqReady();
    assertEquals(6, conn.posted.size());
  }

  @Test
  void aWaitingOperationGoesOutBeforeWhatTheCompletedOnesListenersPost() {
    open();
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      writes.add(write());
    }
    List<Future<Void>> fromListener = new ArrayList<>();
    onLoop(() -> writes.get(0).onComplete(ar -> {
      PromiseInternal<Void> p = context.promise();
      engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 16, 0, p);
      fromListener.add(p.future());
    }));
    conn.complete(conn.posted.get(0));
    cqReady();
    assertEquals(5, conn.posted.size(), "one room freed: one more went out");
    assertEquals(8, conn.posted.get(4).length(), "the one that waited, not the listener's");
    assertFalse(fromListener.get(0).isComplete());
  }

  @Test
  void receivesDoNotWaitBehindAFullSendQueue() {
    open(options().setRcqSize(4));
    for (int i = 0; i < 5; i++) {
      write();
    }
    recv();
    assertEquals(OpKind.RECV, conn.last().kind());
  }

  @Test
  void aRefusedPostFailsThatOperationAloneWithLibrpmasError() {
    open();
    IllegalStateException refusal = new IllegalStateException("refused by librpma");
    conn.refuseNextPost = refusal;
    Future<Void> refused = write();
    Future<Void> next = write();
    assertSame(refusal, failure(refused));
    assertFalse(next.isComplete());
    assertEquals(1, conn.posted.size());
  }

  @Test
  void aRefusedPostGivesBackBothRegionsAndItsRoom() {
    open();
    conn.refuseNextPost = new IllegalStateException("no");
    failure(write());
    assertEquals(0, local.holds);
    assertEquals(0, remote.holds);
    for (int i = 0; i < 4; i++) {
      write();
    }
    assertEquals(4, conn.posted.size(), "the refused one took no room");
  }

  @Test
  void theRemoteRegionIsReleasedAsSoonAsTheOperationIsPosted() {
    open();
    write();
    assertEquals(0, remote.holds, "the work request carries its address and key");
    assertEquals(1, local.holds, "the device may still read the local one");
  }

  @Test
  void anOperationOnAClosedConnectionFailsAndHoldsNothing() {
    open();
    await(closeUnanswered());
    Throwable why = failure(write());
    assertTrue(why.getMessage().contains("is closed"), why.getMessage());
    assertEquals(0, local.holds);
    assertEquals(0, remote.holds);
  }

  @Test
  void aPeerConfigIsAppliedOnAnOpenConnection() {
    open();
    onLoop(() -> {
      engine.applyRemotePeerConfig(new byte[] {1, 2});
      return null;
    });
    assertEquals(2, conn.appliedPeerCfg.length);
  }

  @Test
  void aPeerConfigOnAClosedConnectionIsRefused() {
    open();
    await(closeUnanswered());
    Throwable why = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> onLoop(() -> {
          engine.applyRemotePeerConfig(new byte[] {1});
          return null;
        }));
    assertTrue(String.valueOf(why.getCause()).contains("is closed"), String.valueOf(why));
  }
}
