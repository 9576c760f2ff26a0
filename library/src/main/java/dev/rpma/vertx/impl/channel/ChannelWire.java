package dev.rpma.vertx.impl.channel;

import java.nio.ByteBuffer;

/**
 * The channel's wire format (WIRE.md): the greeting each side puts in the connection's private
 * data, and the immediate data of every message. Kept here alone so that the page and the code
 * have one place to agree.
 */
final class ChannelWire {

  /** ASCII "RPMC". */
  static final int MAGIC = 0x52504d43;
  static final byte VERSION = 1;
  static final int GREETING_BYTES = 12;
  /** The fewest receives a side may offer (the credit rule's threshold needs 2 <= T <= N - 1). */
  static final int MIN_BUFFERS = 4;

  /** Bit 31 of the immediate data: a credit message, not handed to the application. */
  static final int CREDIT_MESSAGE = 1 << 31;
  /** Bits 16-30: reserved, zero. */
  static final int RESERVED_BITS = 0x7fff0000;
  /** Bits 0-15: credits returned. */
  static final int CREDITS_MASK = 0xffff;

  private ChannelWire() {
  }

  /** What one side posts: its receive buffers and their size. */
  record Greeting(int receiveBuffers, int bufferSize) {

    byte[] encode() {
      return ByteBuffer.allocate(GREETING_BYTES).putInt(MAGIC).put(VERSION).put((byte) 0)
          .putShort((short) receiveBuffers).putInt(bufferSize).array();
    }
  }

  /** True if {@code privateData} opens with a greeting's magic. */
  static boolean isGreeting(byte[] privateData) {
    return privateData != null && privateData.length >= GREETING_BYTES
        && ByteBuffer.wrap(privateData).getInt() == MAGIC;
  }

  /**
   * The greeting {@code privateData} opens with.
   *
   * @throws IllegalArgumentException naming what is wrong: no greeting, another version, or
   *     counts out of range
   */
  static Greeting decodeGreeting(byte[] privateData, String from) {
    if (!isGreeting(privateData)) {
      throw new IllegalArgumentException("the " + from + " is not a message channel: its private"
          + " data does not open with the channel's greeting (RPMC, see WIRE.md); use"
          + " RpmaMessageChannel.connect and RpmaMessageChannel.accept on both sides");
    }
    ByteBuffer b = ByteBuffer.wrap(privateData);
    b.getInt();
    int version = b.get();
    b.get();
    int buffers = b.getShort() & 0xffff;
    int size = b.getInt();
    if (version != VERSION) {
      throw new IllegalArgumentException("the " + from + " speaks message channel version "
          + version + ", this side speaks " + VERSION);
    }
    if (buffers < MIN_BUFFERS || size < 1) {
      throw new IllegalArgumentException("the " + from + "'s greeting offers " + buffers
          + " receive buffers of " + size + " bytes: at least " + MIN_BUFFERS
          + " buffers of 1 byte are needed (WIRE.md)");
    }
    return new Greeting(buffers, size);
  }

  /** The immediate data of a data message returning {@code credits}. */
  static int dataImmediate(int credits) {
    return credits;
  }

  /** The immediate data of a credit message returning {@code credits}. */
  static int creditImmediate(int credits) {
    return CREDIT_MESSAGE | credits;
  }

  static boolean isCreditMessage(int immediate) {
    return (immediate & CREDIT_MESSAGE) != 0;
  }

  static int credits(int immediate) {
    return immediate & CREDITS_MASK;
  }

  /** Null if {@code immediate} follows the format, else what is wrong with it. */
  static String checkImmediate(int immediate) {
    return (immediate & RESERVED_BITS) == 0 ? null
        : "immediate data 0x" + Integer.toHexString(immediate) + " sets reserved bits 16-30";
  }
}
