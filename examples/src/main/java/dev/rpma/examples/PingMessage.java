package dev.rpma.examples;

import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;

/** A ping: its round number, then bytes derived from it; the pong must be an exact echo. */
final class PingMessage {

  private PingMessage() {
  }

  static Buffer ping(long round, int size) {
    Buffer b = Buffer.buffer(size).appendLong(round);
    SplittableRandom random = new SplittableRandom(round);
    for (int i = 8; i < size; i++) {
      b.appendByte((byte) random.nextInt());
    }
    return b;
  }

  /** @return null when {@code pong} echoes {@code ping}, else what differs */
  static String checkEcho(Buffer ping, Buffer pong) {
    if (pong.length() != ping.length()) {
      return "the pong has " + pong.length() + " bytes, the ping had " + ping.length();
    }
    for (int i = 0; i < ping.length(); i++) {
      if (ping.getByte(i) != pong.getByte(i)) {
        return "the pong differs from the ping at byte " + i;
      }
    }
    return null;
  }
}
