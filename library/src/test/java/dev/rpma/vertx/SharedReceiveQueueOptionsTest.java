package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The sizes of a shared receive queue: checked at the setter, and as a Vert.x data object. */
class SharedReceiveQueueOptionsTest {

  @Test
  void optionsSurviveARoundTripThroughJson() {
    SharedReceiveQueueOptions options = new SharedReceiveQueueOptions().setRqSize(512)
        .setRcqSize(300).setDrainBatch(16).setDrainBudget(64);

    assertEquals(options, new SharedReceiveQueueOptions(options.toJson()));
    assertEquals(300, new SharedReceiveQueueOptions(options.toJson()).getRcqSize());
  }

  @Test
  void keysTheConfigLacksKeepTheirDefaults() {
    SharedReceiveQueueOptions options = new SharedReceiveQueueOptions(
        new JsonObject().put("rqSize", 32));

    assertEquals(new SharedReceiveQueueOptions().setRqSize(32), options);
  }

  @Test
  void anUnknownKeyIsRefusedNamingTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SharedReceiveQueueOptions(new JsonObject().put("rqsize", 32)));

    assertTrue(e.getMessage().contains("rqsize") && e.getMessage().contains("rqSize"),
        e.getMessage());
  }

  @Test
  void everyDefaultIsAPublicConstant() {
    assertEquals(new JsonObject()
        .put("rqSize", SharedReceiveQueueOptions.DEFAULT_RQ_SIZE)
        .put("rcqSize", SharedReceiveQueueOptions.DEFAULT_RCQ_SIZE)
        .put("drainBatch", SharedReceiveQueueOptions.DEFAULT_DRAIN_BATCH)
        .put("drainBudget", SharedReceiveQueueOptions.DEFAULT_DRAIN_BUDGET),
        new SharedReceiveQueueOptions().toJson());
  }

  @Test
  void aSharedConfigGivesTheOptionsUnderTheirKey() {
    JsonObject config = new JsonObject().put("httpPort", 8080)
        .put("queue", new JsonObject().put("rqSize", 1024));

    assertEquals(new SharedReceiveQueueOptions().setRqSize(1024),
        SharedReceiveQueueOptions.fromConfig(config, "queue"));
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SharedReceiveQueueOptions(new JsonObject().put("drainBatch", "16")));

    assertTrue(e.getMessage().contains("drainBatch has the wrong type"), e.getMessage());
  }

  @Test
  void sizesOfZeroNegativeOrAbsurdAreRefused() {
    SharedReceiveQueueOptions o = new SharedReceiveQueueOptions();

    assertThrows(IllegalArgumentException.class, () -> o.setRqSize(0));
    assertThrows(IllegalArgumentException.class, () -> o.setRcqSize(0));
    assertThrows(IllegalArgumentException.class, () -> o.setRqSize(-1));
    assertThrows(IllegalArgumentException.class,
        () -> o.setRcqSize(ConnectionOptions.MAX_QUEUE_SIZE + 1));
    assertThrows(IllegalArgumentException.class, () -> o.setDrainBatch(0));
    assertThrows(IllegalArgumentException.class, () -> o.setDrainBudget(0));
  }
}
