package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** RpmaConnectOptions as a Vert.x data object: from a verticle's config() and back. */
class RpmaConnectOptionsJsonTest {

  @Test
  void optionsMadeBySettersSurviveARoundTripThroughJson() {
    RpmaConnectOptions options = new RpmaConnectOptions().setHost("10.0.2.15").setPort(7599)
        .setPrivateData(new byte[] {1, 2, 3})
        .setConnectionOptions(new ConnectionOptions().setCqSize(128).setConnectTimeoutMs(5000));

    RpmaConnectOptions back = new RpmaConnectOptions(options.toJson());

    assertEquals(options, back);
    assertEquals("10.0.2.15", back.getHost());
    assertEquals(7599, back.getPort());
    assertArrayEquals(new byte[] {1, 2, 3}, back.getPrivateData());
    assertEquals(5000, back.getConnectionOptions().getConnectTimeoutMs());
  }

  @Test
  void aConfigGivesPrivateDataAsVertxBase64AndConnectionOptionsAsAnObject() {
    JsonObject config = new JsonObject().put("host", "10.0.2.15").put("port", 7599)
        .put("privateData", new byte[] {9, 8}).put("connectionOptions",
            new JsonObject().put("sqSize", 16));

    RpmaConnectOptions options = new RpmaConnectOptions(new JsonObject(config.encode()));

    assertArrayEquals(new byte[] {9, 8}, options.getPrivateData());
    assertEquals(16, options.getConnectionOptions().getSqSize());
    assertEquals(new ConnectionOptions().getCqSize(), options.getConnectionOptions().getCqSize());
  }

  @Test
  void keysTheConfigLacksKeepTheirDefaults() {
    RpmaConnectOptions options = new RpmaConnectOptions(new JsonObject().put("port", 7000));

    assertNull(options.getHost());
    assertNull(options.getPrivateData());
    assertEquals(new ConnectionOptions(), options.getConnectionOptions());
  }

  @Test
  void anUnknownKeyIsRefusedNamingItAndTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("hots", "10.0.2.15")));

    assertTrue(e.getMessage().contains("[hots]") && e.getMessage().contains("host"),
        e.getMessage());
  }

  @Test
  void theQueueIsNoJsonKeyAndItsKeySaysHowToSetIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("sharedReceiveQueue", "q")));

    assertTrue(e.getMessage().contains("setSharedReceiveQueue"), e.getMessage());
    assertFalse(new RpmaConnectOptions().toJson().containsKey("sharedReceiveQueue"));
  }

  @Test
  void anUnknownKeyOfTheConnectionOptionsIsRefusedAsConnectionOptionsRefuseIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("connectionOptions",
            new JsonObject().put("cqsize", 1))));

    assertTrue(e.getMessage().contains("[cqsize]"), e.getMessage());
  }

  @Test
  void privateDataLongerThanTheConnectionManagerCarriesIsRefusedNamingTheLimit() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions().setPrivateData(new byte[57]));

    assertTrue(e.getMessage().contains("at most 56 bytes"), e.getMessage());
  }

  @Test
  void privateDataThatIsNotBase64IsRefusedNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("privateData", "not base64!")));

    assertTrue(e.getMessage().contains("privateData must be base64"), e.getMessage());
  }

  @Test
  void aPortOutOfRangeOrABlankHostIsRefusedAsTheSettersRefuseThem() {
    assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("port", 70000)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("host", " ")));
    assertTrue(e.getMessage().contains("host must be"), e.getMessage());
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedNamingTheTypes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RpmaConnectOptions(new JsonObject().put("port", "7599")));

    assertTrue(e.getMessage().contains("a number for port"), e.getMessage());
  }

  @Test
  void aCopyHasItsOwnPrivateDataAndConnectionOptions() {
    byte[] bytes = {5};
    RpmaConnectOptions options = new RpmaConnectOptions().setPrivateData(bytes);
    RpmaConnectOptions copy = new RpmaConnectOptions(options);
    bytes[0] = 6;
    options.getConnectionOptions().setCqSize(8);

    assertArrayEquals(new byte[] {5}, copy.getPrivateData());
    assertEquals(new ConnectionOptions().getCqSize(), copy.getConnectionOptions().getCqSize());
  }
}
