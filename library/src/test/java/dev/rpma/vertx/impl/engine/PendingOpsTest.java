package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Promise;
import io.vertx.core.internal.PromiseInternal;
import org.junit.jupiter.api.Test;

class PendingOpsTest {

  private static PromiseInternal<Object> promise() {
    return (PromiseInternal<Object>) Promise.promise();
  }

  @Test
  void aWrIdFindsItsOperation() {
    PendingOps ops = new PendingOps(4);
    PromiseInternal<Object> p = promise();

    long wrId = ops.add(OpKind.WRITE, p, null, null);
    int slot = ops.slotOf(wrId);

    assertSame(p, ops.promise(slot));
    assertEquals(OpKind.WRITE, ops.kind(slot));
    assertEquals(1, ops.size());
  }

  @Test
  void aCompletedWrIdNeverMatchesAgainEvenWhenItsSlotIsReused() {
    PendingOps ops = new PendingOps(1);
    long first = ops.add(OpKind.READ, promise(), null, null);
    ops.remove(ops.slotOf(first));

    long second = ops.add(OpKind.READ, promise(), null, null);

    assertNotEquals(first, second);
    assertEquals(-1, ops.slotOf(first));
    assertEquals(0, ops.slotOf(second));
  }

  @Test
  void aForeignWrIdMatchesNothing() {
    PendingOps ops = new PendingOps(2);
    ops.add(OpKind.SEND, promise(), null, null);

    assertEquals(-1, ops.slotOf(7));
    assertEquals(-1, ops.slotOf(-1));
    assertEquals(-1, ops.slotOf(1));
  }

  @Test
  void everySlotCanBeInUseAtOnce() {
    PendingOps ops = new PendingOps(64);
    for (int i = 0; i < 64; i++) {
      ops.add(OpKind.WRITE, promise(), null, null);
    }

    assertEquals(64, ops.size());
    assertEquals(64, ops.slotsInUse().length);
  }
}
