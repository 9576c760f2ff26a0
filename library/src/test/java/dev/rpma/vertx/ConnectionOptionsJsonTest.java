package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** ConnectionOptions as a Vert.x data object: from a verticle's config() and back. */
class ConnectionOptionsJsonTest {

  @Test
  void optionsMadeBySettersSurviveARoundTripThroughJson() {
    ConnectionOptions options = new ConnectionOptions().setCqSize(256).setSqSize(128)
        .setRqSize(32).setRcqSize(16).setSharedCompletionChannel(true).setTimeoutMs(500)
        .setDrainBatch(8).setDrainBudget(64).setCompletionTimeoutMs(0).setConnectTimeoutMs(5000)
        .setKeepAliveMs(2000).setBusyPollMicros(50);

    ConnectionOptions back = new ConnectionOptions(options.toJson());

    assertEquals(options, back);
    assertEquals(256, back.getCqSize());
    assertTrue(back.isSharedCompletionChannel());
    assertEquals(0, back.getCompletionTimeoutMs());
    assertEquals(50, back.getBusyPollMicros());
  }

  @Test
  void busyPollingIsOffByDefaultAndASpinOutOfRangeIsRefusedNamingTheRange() {
    assertEquals(0, new ConnectionOptions().getBusyPollMicros());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions().setBusyPollMicros(-1));

    assertTrue(e.getMessage().contains("busyPollMicros must be in [0 (off), 1000000]"),
        e.getMessage());
  }

  @Test
  void keysTheConfigLacksKeepTheirDefaults() {
    ConnectionOptions options = new ConnectionOptions(
        new JsonObject("{\"connectTimeoutMs\": 5000}"));

    assertEquals(5000, options.getConnectTimeoutMs());
    assertEquals(new ConnectionOptions().setConnectTimeoutMs(5000), options);
  }

  @Test
  void anUnknownKeyIsRefusedNamingItAndTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("cqsize", 256)));

    assertTrue(e.getMessage().contains("[cqsize]") && e.getMessage().contains("cqSize"),
        e.getMessage());
  }

  @Test
  void aValueOutOfRangeIsRefusedAsItsSetterRefusesIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("sqSize", 0)));

    assertTrue(e.getMessage().contains("sqSize"), e.getMessage());
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedClearly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("cqSize", "big")));

    assertTrue(e.getMessage().contains("wrong type"), e.getMessage());
  }

  @Test
  void toStringShowsEverySetting() {
    String text = new ConnectionOptions().setCqSize(99).toString();

    assertTrue(text.startsWith("ConnectionOptions{") && text.contains("\"cqSize\":99"), text);
    assertFalse(text.contains("@"), text);
  }
}
