package dev.rpma.examples;

import dev.rpma.vertx.Received;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/** A ping: its round number, then bytes derived from it; the pong must be an exact echo. */
final class PingMessage {

  private PingMessage() {
  }

  static void fill(ByteBuffer buffer, int offset, long round, int size) {
    buffer.putLong(offset, round);
    SplittableRandom random = new SplittableRandom(round);
    for (int i = 8; i < size; i++) {
      buffer.put(offset + i, (byte) random.nextInt());
    }
  }

  /** @return null when the pong at {@code pongOffset} echoes the ping, else what differs */
  static String checkEcho(ByteBuffer buffer, int pingOffset, int pongOffset, int size,
      Received pong) {
    if (pong.byteLength() != size) {
      return "the pong has " + pong.byteLength() + " bytes, the ping had " + size;
    }
    int mismatch = buffer.slice(pingOffset, size).mismatch(buffer.slice(pongOffset, size));
    return mismatch < 0 ? null : "the pong differs from the ping at byte " + mismatch;
  }
}
