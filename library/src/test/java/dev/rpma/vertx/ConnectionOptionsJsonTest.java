package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * ConnectionOptions as a Vert.x data object: from a verticle's config() and back. The checks
 * all options share (OptionChecks) are specified here; the other options' tests check that
 * they use them.
 */
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
  void everyDefaultIsAPublicConstant() {
    ConnectionOptions defaults = new ConnectionOptions();

    assertEquals(new JsonObject()
        .put("cqSize", ConnectionOptions.DEFAULT_CQ_SIZE)
        .put("sqSize", ConnectionOptions.DEFAULT_SQ_SIZE)
        .put("rqSize", ConnectionOptions.DEFAULT_RQ_SIZE)
        .put("rcqSize", ConnectionOptions.DEFAULT_RCQ_SIZE)
        .put("sharedCompletionChannel", ConnectionOptions.DEFAULT_SHARED_COMPLETION_CHANNEL)
        .put("timeoutMs", ConnectionOptions.DEFAULT_TIMEOUT_MS)
        .put("drainBatch", ConnectionOptions.DEFAULT_DRAIN_BATCH)
        .put("drainBudget", ConnectionOptions.DEFAULT_DRAIN_BUDGET)
        .put("completionTimeoutMs", ConnectionOptions.DEFAULT_COMPLETION_TIMEOUT_MS)
        .put("connectTimeoutMs", ConnectionOptions.DEFAULT_CONNECT_TIMEOUT_MS)
        .put("keepAliveMs", ConnectionOptions.DEFAULT_KEEP_ALIVE_MS)
        .put("busyPollMicros", ConnectionOptions.DEFAULT_BUSY_POLL_MICROS), defaults.toJson());
  }

  @Test
  void aMistypedKeyIsRefusedNamingItTheKnownKeysAndTheOneItResembles() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("cq_size", 256)));

    assertTrue(e.getMessage().contains("unknown ConnectionOptions keys [cq_size] (meant cqSize?)")
        && e.getMessage().contains("the keys are [busyPollMicros, completionTimeoutMs,"),
        e.getMessage());
  }

  @Test
  void aKeyOfOtherSettingsIsRefusedNamingTheWayToShareAConfig() {
    JsonObject flat = new JsonObject().put("cqSize", 256).put("httpPort", 8080);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(flat));

    assertTrue(e.getMessage().contains("[httpPort]")
        && e.getMessage().contains("ConnectionOptions.fromConfig(config, key)"), e.getMessage());
  }

  @Test
  void aSharedConfigGivesTheOptionsUnderTheirKeyAndLeavesTheRestAlone() {
    JsonObject config = new JsonObject().put("httpPort", 8080)
        .put("db", new JsonObject().put("url", "jdbc:x"))
        .put("connection", new JsonObject().put("cqSize", 256).put("keepAliveMs", 0));

    ConnectionOptions options = ConnectionOptions.fromConfig(config, "connection");

    assertEquals(new ConnectionOptions().setCqSize(256).setKeepAliveMs(0), options);
  }

  @Test
  void aMistypedKeyUnderTheSharedConfigsKeyIsStillRefused() {
    JsonObject config = new JsonObject().put("httpPort", 8080)
        .put("connection", new JsonObject().put("cqsize", 256));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConnectionOptions.fromConfig(config, "connection"));

    assertTrue(e.getMessage().contains("[cqsize] (meant cqSize?)"), e.getMessage());
  }

  @Test
  void aSharedConfigWithoutTheKeyGivesTheDefaults() {
    assertEquals(new ConnectionOptions(),
        ConnectionOptions.fromConfig(new JsonObject().put("httpPort", 8080), "connection"));
  }

  @Test
  void aSharedConfigWhoseKeyHoldsNoObjectIsRefusedNamingTheKey() {
    JsonObject config = new JsonObject().put("connection", 256);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConnectionOptions.fromConfig(config, "connection"));

    assertTrue(e.getMessage().contains("config key connection must be a JSON object of"
        + " ConnectionOptions keys, got 256"), e.getMessage());
  }

  @Test
  void aFractionOrANumberBeyondIntIsRefusedNotTruncated() {
    IllegalArgumentException fraction = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("cqSize", 1.5)));
    IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("timeoutMs", 1L << 32)));

    assertTrue(fraction.getMessage().contains("key cqSize has the wrong type: a whole number"),
        fraction.getMessage());
    assertTrue(huge.getMessage().contains("key timeoutMs has the wrong type"), huge.getMessage());
  }

  @Test
  void aWholeNumberWrittenAsLongOrDoubleIsTaken() {
    ConnectionOptions options = new ConnectionOptions(
        new JsonObject().put("cqSize", 128L).put("sqSize", 32.0));

    assertEquals(new ConnectionOptions().setCqSize(128).setSqSize(32), options);
  }

  @Test
  void aNullValueIsRefusedSayingToLeaveTheKeyOut() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().putNull("cqSize")));

    assertTrue(e.getMessage().contains("leave the key out for the default"), e.getMessage());
  }

  @Test
  void aBooleanOptionRefusesANumber() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConnectionOptions(new JsonObject().put("sharedCompletionChannel", 1)));

    assertTrue(e.getMessage().contains("sharedCompletionChannel has the wrong type: true or"
        + " false expected, got 1"), e.getMessage());
  }

  @Test
  void aCopyIsEqualAndIndependent() {
    ConnectionOptions original = new ConnectionOptions().setCqSize(128);
    ConnectionOptions copy = new ConnectionOptions(original);

    copy.setCqSize(256);

    assertEquals(128, original.getCqSize());
    assertEquals(new ConnectionOptions().setCqSize(256), copy);
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

    assertTrue(e.getMessage().contains("cqSize has the wrong type: a whole number (int) expected,"
        + " got \"big\""), e.getMessage());
  }

  @Test
  void toStringShowsEverySetting() {
    String text = new ConnectionOptions().setCqSize(99).toString();

    assertTrue(text.startsWith("ConnectionOptions{") && text.contains("\"cqSize\":99"), text);
    assertFalse(text.contains("@"), text);
  }
}
