package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code -Ddev.rpma.selectiveSignalling=false} (the bench's A/B switch): every operation asks
 * for a completion of its own and completes with it. Run by the surefire execution
 * {@code selective-signalling-off} of library/pom.xml, a JVM with the switch set (it is read
 * once, at the class's initialization); the default run leaves this class out.
 */
class EngineWithoutSelectiveSignallingTest extends BatchPostingTestBase {

  @Test
  void theSwitchIsOffInThisJvm() {
    assertFalse(Submitter.SELECTIVE_SIGNALLING,
        "run me in a JVM with -Ddev.rpma.selectiveSignalling=false (library/pom.xml)");
  }

  @Test
  void whatListenersOfOneBatchPostGoesOutEachSignalled() {
    open(roomy());
    threeWritesEachPostingOne(new ArrayList<>(), new ArrayList<>());
    completeFirstThreeInOneBatch();
    assertEquals(6, conn.posted.size());
    assertEquals(List.of(true, true, true, true, true, true),
        conn.posted.stream().map(FakeLibrpma.Post::signalled).toList());
  }

  @Test
  void eachOperationCompletesWithItsOwnCompletion() {
    open(roomy());
    List<Future<Void>> next = new ArrayList<>();
    List<String> order = new ArrayList<>();
    threeWritesEachPostingOne(next, order);
    completeFirstThreeInOneBatch();
    conn.complete(conn.posted.get(3));
    cqReady();
    settle();
    assertEquals(List.of("next 0 ok"), order, "the first one alone, by its own completion");
    assertTrue(next.get(0).succeeded());
    assertFalse(next.get(1).isComplete());
  }
}
