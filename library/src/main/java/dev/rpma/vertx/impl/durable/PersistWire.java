package dev.rpma.vertx.impl.durable;

import java.nio.ByteBuffer;

/**
 * The bytes of a persist request and its reply (big-endian, as ByteBuffer writes them):
 *
 * <pre>
 * request (24): int 'RPDP', int slot, long offset, long length
 * reply   (16): int 'RPDA', int slot, int status, int 0
 * </pre>
 *
 * The slot is the client's (0 to WINDOW - 1): a reply names the request it answers, so replies
 * may come in any order.
 */
final class PersistWire {

  static final int REQUEST_BYTES = 24;
  static final int REPLY_BYTES = 16;
  static final int REQUEST_MAGIC = 0x52504450;
  static final int REPLY_MAGIC = 0x52504441;

  /** The range is durable. */
  static final int OK = 0;
  /** The range does not lie in the server's region. */
  static final int OUT_OF_RANGE = 1;
  /** The server's persister failed (its log says why). */
  static final int PERSIST_FAILED = 2;
  /** Not a persist request of this library's format. */
  static final int BAD_REQUEST = 3;

  private PersistWire() {
  }

  static void putRequest(ByteBuffer to, int at, int slot, long offset, long length) {
    to.putInt(at, REQUEST_MAGIC).putInt(at + 4, slot).putLong(at + 8, offset)
        .putLong(at + 16, length);
  }

  static void putReply(ByteBuffer to, int at, int slot, int status) {
    to.putInt(at, REPLY_MAGIC).putInt(at + 4, slot).putInt(at + 8, status).putInt(at + 12, 0);
  }

  static boolean isRequest(ByteBuffer from, int at, int byteLength) {
    return byteLength == REQUEST_BYTES && from.getInt(at) == REQUEST_MAGIC;
  }

  static boolean isReply(ByteBuffer from, int at, int byteLength) {
    return byteLength == REPLY_BYTES && from.getInt(at) == REPLY_MAGIC;
  }

  static int slot(ByteBuffer from, int at) {
    return from.getInt(at + 4);
  }

  static long offset(ByteBuffer request, int at) {
    return request.getLong(at + 8);
  }

  static long length(ByteBuffer request, int at) {
    return request.getLong(at + 16);
  }

  static int status(ByteBuffer reply, int at) {
    return reply.getInt(at + 8);
  }

  /** What a failed reply's status means to the client, with what to do. */
  static String describe(int status) {
    return switch (status) {
      case OUT_OF_RANGE -> "the server refused the range: it does not lie in its region";
      case PERSIST_FAILED -> "the server could not persist the range (its persister failed;"
          + " the server's log says why): the bytes may not be durable";
      case BAD_REQUEST -> "the server did not understand the request: use the same"
          + " vertx-rpma on both sides";
      default -> "the server answered with unknown status " + status
          + ": use the same vertx-rpma on both sides";
    };
  }
}
