package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** MessageChannelOptions as a Vert.x data object (the shared checks: ConnectionOptionsJsonTest). */
class MessageChannelOptionsTest {

  @Test
  void optionsMadeBySettersSurviveARoundTripThroughJson() {
    MessageChannelOptions options = new MessageChannelOptions().setReceiveBufferSize(65536)
        .setReceiveBuffers(8).setSendBuffers(4).setWriteQueueMaxSize(100);

    MessageChannelOptions back = new MessageChannelOptions(options.toJson());

    assertEquals(options, back);
    assertEquals(65536, back.getReceiveBufferSize());
    assertEquals(100, back.getWriteQueueMaxSize());
  }

  @Test
  void everyDefaultIsAPublicConstant() {
    assertEquals(new JsonObject()
        .put("receiveBufferSize", MessageChannelOptions.DEFAULT_RECEIVE_BUFFER_SIZE)
        .put("receiveBuffers", MessageChannelOptions.DEFAULT_RECEIVE_BUFFERS)
        .put("sendBuffers", MessageChannelOptions.DEFAULT_SEND_BUFFERS)
        .put("writeQueueMaxSize", MessageChannelOptions.DEFAULT_WRITE_QUEUE_MAX_SIZE),
        new MessageChannelOptions().toJson());
  }

  @Test
  void keysTheJsonLacksKeepTheirDefaults() {
    assertEquals(new MessageChannelOptions().setSendBuffers(8),
        new MessageChannelOptions(new JsonObject().put("sendBuffers", 8)));
  }

  @Test
  void aMistypedKeyIsRefusedNamingItAndTheKnownKeys() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MessageChannelOptions(new JsonObject().put("receiveBufferSise", 1024)));

    assertTrue(e.getMessage().contains("unknown MessageChannelOptions keys [receiveBufferSise]")
        && e.getMessage().contains("[receiveBufferSize, receiveBuffers, sendBuffers,"
        + " writeQueueMaxSize]"), e.getMessage());
  }

  @Test
  void aValueOutOfRangeIsRefusedAsItsSetterRefusesIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MessageChannelOptions(new JsonObject().put("receiveBuffers", 2)));

    assertTrue(e.getMessage().contains("receiveBuffers must be in [4, 65535], got 2"),
        e.getMessage());
  }

  @Test
  void aSharedConfigGivesTheOptionsUnderTheirKey() {
    JsonObject config = new JsonObject().put("httpPort", 8080)
        .put("connection", new JsonObject().put("cqSize", 256))
        .put("channel", new JsonObject().put("receiveBufferSize", 4096));

    assertEquals(new MessageChannelOptions().setReceiveBufferSize(4096),
        MessageChannelOptions.fromConfig(config, "channel"));
  }

  @Test
  void aCopyIsEqualAndIndependent() {
    MessageChannelOptions original = new MessageChannelOptions().setSendBuffers(2);
    MessageChannelOptions copy = new MessageChannelOptions(original).setSendBuffers(3);

    assertEquals(2, original.getSendBuffers());
    assertEquals(new MessageChannelOptions().setSendBuffers(3), copy);
  }
}
