package dev.rpma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The windowed runner's early stop: what the replicated writer's --until-whole relies on. */
class WindowedRunnerTest {

  @Test
  void noOperationStartsOnceMoreSaysFalseAndTheRunCountsThoseStarted() {
    List<Long> started = new ArrayList<>();
    Future<Measurement> run = WindowedRunner.run("op", 100, 4, (index, lane) -> {
      started.add(index);
      return Future.succeededFuture();
    }, () -> started.size() < 10);
    assertTrue(run.succeeded());
    assertEquals(10, started.size());
    assertEquals(10, run.result().operations());
  }

  @Test
  void withoutAStopTheRunGoesToItsCount() {
    List<Long> started = new ArrayList<>();
    Future<Measurement> run = WindowedRunner.run("op", 25, 4, (index, lane) -> {
      started.add(index);
      return Future.succeededFuture();
    });
    assertEquals(25, run.result().operations());
    assertEquals(24L, started.get(started.size() - 1));
  }
}
