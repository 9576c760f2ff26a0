package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.impl.seam.OpKind;
import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;

/**
 * The scenario selective signalling is about, for its tests with the technique on and off:
 * three writes completed in one batch, each of whose listeners posts one more.
 */
abstract class BatchPostingTestBase extends EngineTestBase {

  /** Room for three in flight and three more posted by their listeners. */
  static ConnectionOptions roomy() {
    return options().setSqSize(8).setCqSize(8).setDrainBatch(4).setDrainBudget(8);
  }

  /** Three writes, each of whose listeners posts one more (into {@code next}, in order). */
  List<Future<Void>> threeWritesEachPostingOne(List<Future<Void>> next, List<String> order) {
    List<Future<Void>> first = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Future<Void> w = write();
      first.add(w);
      onLoop(() -> w.onComplete(ar -> {
        PromiseInternal<Void> p = context.promise();
        engine.submit(OpKind.WRITE, local.held(), 0, remote.held(), 0, 8, 0, p);
        int n = next.size();
        p.future().onComplete(r -> order.add("next " + n + (r.succeeded() ? " ok" : " failed")));
        next.add(p.future());
      }));
    }
    return first;
  }

  void completeFirstThreeInOneBatch() {
    for (int i = 0; i < 3; i++) {
      conn.complete(conn.posted.get(i));
    }
    cqReady();
  }
}
