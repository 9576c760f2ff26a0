package dev.rpma.examples.replicated;

import java.nio.ByteBuffer;

/**
 * What a client says in its connect's private data: whether it comes to write (with its
 * epoch, the fencing token: a server serves the highest epoch it has seen and fences older
 * writers) or only to read the log (a server catching up, a new writer finding the tail, the
 * checker).
 *
 * @param writer true to write, false to read
 * @param epoch the writer's epoch, at least 1; 0 for a reader
 */
record ReplicaHello(boolean writer, long epoch) {

  private static final int MAGIC = 0x52504c43; // "RPLC"
  private static final int LENGTH = 13;

  static ReplicaHello writer(long epoch) {
    if (epoch < 1) {
      throw new IllegalArgumentException("a writer's epoch is at least 1, got " + epoch);
    }
    return new ReplicaHello(true, epoch);
  }

  static ReplicaHello reader() {
    return new ReplicaHello(false, 0);
  }

  byte[] toBytes() {
    return ByteBuffer.allocate(LENGTH).putInt(MAGIC).put((byte) (writer ? 1 : 2))
        .putLong(epoch).array();
  }

  /** Fails with an IllegalArgumentException for anything else (e.g. a plain log client). */
  static ReplicaHello fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (bytes.length < LENGTH || in.getInt() != MAGIC) {
      throw new IllegalArgumentException("not a replicated log client: its private data does"
          + " not start with RPLC");
    }
    byte role = in.get();
    long epoch = in.getLong();
    if (role == 1 && epoch >= 1) {
      return new ReplicaHello(true, epoch);
    }
    if (role == 2) {
      return reader();
    }
    throw new IllegalArgumentException("a replicated log hello with role " + role + " and epoch "
        + epoch);
  }
}
