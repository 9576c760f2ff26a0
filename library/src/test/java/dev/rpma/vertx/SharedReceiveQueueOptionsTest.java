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
