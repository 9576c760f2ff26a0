package dev.rpma.vertx.impl.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The bytes WIRE.md documents, so a C peer can rely on them. */
class ChannelWireTest {

  @Test
  void theGreetingIsTwelveBigEndianBytesAsDocumented() {
    byte[] g = new ChannelWire.Greeting(0x0102, 0x03040506).encode();
    assertArrayEquals(new byte[] {'R', 'P', 'M', 'C', 1, 0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06},
        g);
  }

  @Test
  void aGreetingPaddedByTheConnectionManagerReadsBack() {
    byte[] padded = Arrays.copyOf(new ChannelWire.Greeting(32, 8192).encode(), 56);
    assertEquals(new ChannelWire.Greeting(32, 8192), ChannelWire.decodeGreeting(padded, "client"));
  }

  @Test
  void privateDataWithoutTheGreetingIsRefusedNamingTheFix() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChannelWire.decodeGreeting(new byte[56], "client"));
    assertTrue(e.getMessage().contains("RpmaMessageChannel.connect"), e.getMessage());
    assertFalse(ChannelWire.isGreeting(new byte[0]));
    assertFalse(ChannelWire.isGreeting(null));
  }

  @Test
  void anotherVersionIsRefused() {
    byte[] g = new ChannelWire.Greeting(32, 8192).encode();
    g[4] = 2;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChannelWire.decodeGreeting(g, "server"));
    assertTrue(e.getMessage().contains("version 2"), e.getMessage());
  }

  @Test
  void tooFewReceivesAreRefused() {
    byte[] g = new ChannelWire.Greeting(3, 8192).encode();
    assertThrows(IllegalArgumentException.class, () -> ChannelWire.decodeGreeting(g, "server"));
  }

  @Test
  void theImmediateDataSaysCreditMessageInBit31AndCreditsInTheLow16Bits() {
    assertEquals(0x80000005, ChannelWire.creditImmediate(5));
    assertEquals(5, ChannelWire.dataImmediate(5));
    assertTrue(ChannelWire.isCreditMessage(0x80000005));
    assertFalse(ChannelWire.isCreditMessage(5));
    assertEquals(0xffff, ChannelWire.credits(0x8000ffff));
  }

  @Test
  void reservedBitsAreAProtocolError() {
    assertNull(ChannelWire.checkImmediate(0x8000ffff));
    assertNotNull(ChannelWire.checkImmediate(0x00010000));
  }
}
